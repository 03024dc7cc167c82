/**
 * A company site shaped like the real web, for the test that one site read gets what a person
 * browsing it would see (test/sites/read/real-web.test.ts). Served on loopback as several
 * hosts, each its own entry of SITE_ORIGIN_OVERRIDES, as a real company's are:
 *
 * - `realweb.example` (the apex) answers every request, robots.txt included, with a 301 to the same
 *   path on `www.realweb.example`, as most company sites do;
 * - `www.realweb.example` is the site: robots.txt with wildcard rules for ReconBot; every page's
 *   canonical link names the home page (a common template mistake); annual prices in a hidden tab
 *   panel; a PDF price sheet; a press page that answers 429 with Retry-After once, then the page; a
 *   careers page linking a Greenhouse board; a changelog whose older entries only its RSS feed lists;
 *   a page marked noindex; and a page rendered by its script (an empty `<div id="root">`);
 * - `boards-api.greenhouse.io` serves the board's public JSON API (its real host, mapped to loopback).
 *
 * Each fact is one sentence a research brief can quote; the noindex page's sentence must never be.
 * Types and data only (test/helpers/pdf-files.ts writes the PDF), so both the config and tests import it.
 */
import type { SiteSpec } from '../../scripts/lib/site-types.ts';
import { textPdf } from '../helpers/pdf-files.ts';

export const REAL_WEB_DOMAIN = 'realweb.example';
export const REAL_WEB_HOST = `www.${REAL_WEB_DOMAIN}`;
export const GREENHOUSE_API_HOST = 'boards-api.greenhouse.io';
export const REAL_WEB_BOARD = 'realweb';

/** The facts of the site, each as the sentence that states it, and the URL a brief must cite for it. */
export const REAL_WEB_FACTS = {
  annualPrice: { sentence: 'Billed annually, the Realweb Growth plan costs $490 per seat per year.', url: `https://${REAL_WEB_HOST}/pricing` },
  priceSheet: { sentence: 'The Realweb Enterprise plan costs $1,900 per month for up to 200 seats.', url: `https://${REAL_WEB_HOST}/files/price-sheet.pdf` },
  pressKit: { sentence: 'Realweb opened its Lisbon office in June 2026 with 40 engineers.', url: `https://${REAL_WEB_HOST}/press` },
  feedOnly: { sentence: 'Realweb 2.3 added SAML single sign-on for every Growth workspace.', url: `https://${REAL_WEB_HOST}/changelog/realweb-2-3` },
  role: { sentence: 'Realweb is hiring a Solutions Architect in Lisbon to lead onboarding for enterprise customers.', url: `https://boards.greenhouse.io/${REAL_WEB_BOARD}/jobs/4012` },
  rendered: { sentence: 'Realweb customers include Harbour Freight Lines and Copperleaf Pharmacy.', url: `https://${REAL_WEB_HOST}/customers` },
} as const;

/** The sentence of the noindex page: no brief may ever quote it. */
export const REAL_WEB_NOINDEX_SENTENCE = 'The Realweb staff preview costs $7 per seat per month for insiders.';

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>`
  + `<link rel="canonical" href="https://${REAL_WEB_HOST}/">${head}</head><body>${NAV}<main><h1>${title}</h1>${body}</main></body></html>`;

const NAV = `<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/customers">Customers</a> <a href="/press">Press</a>
  <a href="/careers">Careers</a> <a href="/changelog">Changelog</a></nav>`;

/** The apex: a 301 to the same path on www. for everything, robots.txt included. */
export function realWebApex(): SiteSpec {
  return {
    pages: {},
    generate: (path, query) => {
      const search = query.toString();
      return { status: 301, location: `https://${REAL_WEB_HOST}${path}${search ? `?${search}` : ''}` };
    },
  };
}

/** The www. host: the site itself. */
export function realWebSite(): SiteSpec {
  let pressRequests = 0;
  const { annualPrice, priceSheet, pressKit, feedOnly, rendered } = REAL_WEB_FACTS;
  const rss = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Realweb changelog</title><link>https://${REAL_WEB_HOST}/changelog</link>
    <item><title>Realweb 2.4: audit log export</title><link>https://${REAL_WEB_HOST}/changelog</link><pubDate>Mon, 02 Nov 2026 09:00:00 GMT</pubDate><description>Realweb 2.4 exports the audit log as CSV.</description></item>
    <item><title>Realweb 2.3: SAML single sign-on</title><link>${feedOnly.url}</link><pubDate>Tue, 10 Mar 2026 09:00:00 GMT</pubDate><description><![CDATA[<p>${feedOnly.sentence}</p>]]></description></item>
  </channel></rss>`;
  return {
    robots: [
      'User-agent: *',
      'Disallow: /',
      '',
      'User-agent: ReconBot',
      'Disallow: /*.json$',
      'Disallow: /drafts/*',
      'Disallow: /*?session=',
      'Allow: /',
      '',
      `Sitemap: https://${REAL_WEB_DOMAIN}/sitemap.xml`,
      '',
    ].join('\n'),
    sitemaps: {
      // Listed under the apex, as many sitemaps are: each URL redirects to www.
      '/sitemap.xml': {
        xml: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', '/pricing', '/careers', '/changelog', '/drafts/q3-pricing']
          .map((path) => `<url><loc>https://${REAL_WEB_DOMAIN}${path}</loc></url>`)
          .join('')}</urlset>`,
      },
    },
    pages: {
      '/': { body: page('Realweb: the workspace for field teams', '<p>Realweb builds a shared workspace for field service teams.</p><p><a href="/staff-preview">Staff preview</a> <a href="/drafts/q3-pricing">Draft</a></p>') },
      '/pricing': {
        body: page(
          'Realweb pricing',
          `<div role="tablist"><button role="tab" aria-controls="monthly" aria-selected="true">Monthly</button><button role="tab" aria-controls="annual">Annual</button></div>
          <div role="tabpanel" id="monthly"><p>Billed monthly, the Realweb Growth plan costs $49 per seat per month.</p></div>
          <div role="tabpanel" id="annual" hidden><p>${annualPrice.sentence}</p></div>
          <p>Every plan includes offline mode. <a href="/files/price-sheet.pdf">Download the price sheet</a>.</p>`,
        ),
      },
      '/files/price-sheet.pdf': {
        body: textPdf(['Realweb price sheet', '', priceSheet.sentence, '', 'Prices exclude VAT.'], { info: { Title: 'Realweb price sheet' } }),
        type: 'application/pdf',
      },
      '/careers': { body: page('Careers at Realweb', `<p>Realweb hires across Europe.</p><p><a href="https://boards.greenhouse.io/${REAL_WEB_BOARD}">See our open roles</a></p>`) },
      '/changelog': {
        body: page('Realweb changelog', '<p>Realweb 2.4 exports the audit log as CSV.</p>', '<link rel="alternate" type="application/rss+xml" title="Changelog" href="/changelog/rss.xml">'),
      },
      '/changelog/rss.xml': { body: rss, type: 'application/rss+xml' },
      '/staff-preview': { body: page('Staff preview', `<p>${REAL_WEB_NOINDEX_SENTENCE}</p>`, '<meta name="robots" content="noindex">') },
      '/drafts/q3-pricing': { body: page('Draft pricing', '<p>The Realweb draft plan costs $3 per seat, a sentence no read may take.</p>') },
      // Rendered by its script: the HTML has an empty root; the text comes from /api/customers.txt.
      '/customers': {
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Realweb customers</title></head><body><div id="root"></div>
          <script src="/assets/customers.js"></script></body></html>`,
      },
      '/assets/customers.js': {
        type: 'text/javascript',
        body: `fetch('/api/customers.txt').then((r) => r.text()).then((text) => { document.getElementById('root').innerHTML = '<h1>Realweb customers</h1><p>' + text + '</p>'; });`,
      },
      '/api/customers.txt': { type: 'text/plain', body: rendered.sentence },
    },
    generate: (path) => {
      // The press page pushes back once (429 with Retry-After: 1), then answers.
      if (path === '/press') {
        pressRequests += 1;
        if (pressRequests === 1) return { status: 429, headers: { 'retry-after': '1' }, body: 'Too many requests' };
        return { body: page('Realweb press', `<p>${pressKit.sentence}</p>`) };
      }
      return undefined;
    },
  };
}

/** Greenhouse's public job board API for the site's board, as documented (content HTML-escaped). */
export function greenhouseApi(): SiteSpec {
  const { role } = REAL_WEB_FACTS;
  const escaped = (html: string) => html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const jobs = {
    jobs: [
      { id: 4012, title: 'Solutions Architect', location: { name: 'Lisbon' }, absolute_url: role.url, updated_at: '2026-11-02T10:00:00-05:00', content: escaped(`<p>${role.sentence}</p>`), departments: [{ name: 'Customer Success' }] },
      { id: 4013, title: 'Account Executive', location: { name: 'Berlin' }, absolute_url: `https://boards.greenhouse.io/${REAL_WEB_BOARD}/jobs/4013`, updated_at: '2026-10-20T10:00:00-05:00', content: escaped('<p>Realweb is hiring an Account Executive in Berlin for the DACH region.</p>'), departments: [{ name: 'Sales' }] },
    ],
    meta: { total: 2 },
  };
  return {
    robots: 'User-agent: *\nAllow: /\n',
    pages: { [`/v1/boards/${REAL_WEB_BOARD}/jobs`]: { body: JSON.stringify(jobs), type: 'application/json' } },
  };
}

/** A site whose apex and www. redirect to each other, for every path robots.txt included: a loop across hosts. */
export const LOOP_DOMAIN = 'loop.example';

function redirectTo(host: string): SiteSpec {
  return { pages: {}, generate: (path) => ({ status: 301, location: `https://${host}${path}` }) };
}

/** The hosts of the real-web site and of the redirect loop, as fixtureSites() serves them (each its own SITE_ORIGIN_OVERRIDES entry). */
export function realWebSites(): Record<string, SiteSpec> {
  return {
    [REAL_WEB_DOMAIN]: realWebApex(),
    [REAL_WEB_HOST]: realWebSite(),
    [GREENHOUSE_API_HOST]: greenhouseApi(),
    [LOOP_DOMAIN]: redirectTo(`www.${LOOP_DOMAIN}`),
    [`www.${LOOP_DOMAIN}`]: redirectTo(LOOP_DOMAIN),
  };
}
