/**
 * The sites that tests of site reads read, as data (scripts/lib/site-types.ts). vitest.config.ts
 * serves each on its own loopback port (scripts/lib/site-server.ts) and names them in the Worker's
 * SITE_ORIGIN_OVERRIDES; tests find their domains and control origins with test/helpers/sites.ts.
 * No Node or Workers API here, so both sides may import the facts the pages state.
 *
 * - COMPANY (northwind.example, and copies northwind-2.example to northwind-9.example for test
 *   files that change pages or read the request log without stepping on each other): a company's
 *   site with what a GTM team reads (home, pricing, product, about, customers, blog, careers,
 *   changelog, integrations, a comparison), facts in sentences; robots.txt with a `ReconBot` group
 *   (Disallow /internal/ and /admin, which the home page links to) and a `*` group that disallows
 *   everything with a Crawl-delay of 30 (a reader that picks the wrong group reads nothing, slowly);
 *   a sitemap index -> a plain and a gzip-compressed sitemap; canonical duplicates; traps (a
 *   calendar with endless next links, endless query strings); redirects (same site, to another
 *   host, to a private address, a chain longer than 5); a slow page (1.5 s, inside the 10 s
 *   deadline); files that are not HTML; a pricing page that tests change between reads
 *   (PUT /__site/pages?path=/pricing with pricingPage(PRICE_AFTER)).
 * - POLITE (polite.example): four pages, `Crawl-delay: 1` in the ReconBot group.
 * - HOSTILE (hostile.example): a huge page (3 MiB), malformed HTML, a page of 5,000 links, a link
 *   farm of generated pages.
 * - HOSTILE_FILES (hostile-files.example): a robots.txt over 500 KiB, and sitemaps that are a gzip
 *   bomb, a loop of sitemap indexes, 10,000 URLs and malformed XML.
 * - SLOW (slow.example): a page that never answers and one that takes 12 s (past the 10 s
 *   deadline): a test reading it should lower the page deadline.
 * - OFFLINE (offline.example): mapped to a loopback port nothing listens on.
 * - SERVER_CHECK (site-server.example): the company site again, for the test of the server itself.
 * - REAL_WEB (realweb.example, www.realweb.example and a Greenhouse board API): a site shaped like
 *   the real web, each host its own entry (test/sites/real-web-site.ts).
 * - CHANGING (changing.example, www.changing.example, a board on the same Greenhouse API host): a
 *   company site whose pages change on every load in ways that are no news, and whose prices, roles
 *   and changelog a watch test changes (test/sites/changing-site.ts).
 * - MULTI_HOST (multihost.example and docs.multihost.example): a site whose docs are a host of their
 *   own, read only when a read names it (test/sites/multi-host-site.ts).
 */
import type { SitePage, SiteSpec } from '../../scripts/lib/site-types.ts';
import { GREENHOUSE_API_HOST, realWebSites } from './real-web-site.ts';
import { changingBoardPages, changingSites } from './changing-site.ts';
import { multiHostSites } from './multi-host-site.ts';

/** Each fixture site's origin (its pages and control paths) by domain, as vitest.config.ts provides it. */
export type FixtureSiteOrigins = Record<string, string>;

declare module 'vitest' {
  export interface ProvidedContext {
    fixtureSites: FixtureSiteOrigins;
  }
}

export const COMPANY_DOMAINS = ['northwind.example', 'northwind-2.example', 'northwind-3.example', 'northwind-4.example', 'northwind-5.example', 'northwind-6.example', 'northwind-7.example', 'northwind-8.example', 'northwind-9.example', 'northwind-10.example', 'northwind-11.example'] as const;
export const POLITE_DOMAIN = 'polite.example';
export const HOSTILE_DOMAIN = 'hostile.example';
export const HOSTILE_FILES_DOMAIN = 'hostile-files.example';
export const SLOW_DOMAIN = 'slow.example';
export const OFFLINE_DOMAIN = 'offline.example';
/** A copy of the company site that only test/sites/site-server.test.ts touches (it checks the server itself). */
export const SERVER_CHECK_DOMAIN = 'site-server.example';

export const COMPANY_NAME = 'Northwind Robotics';
/** The Fleet plan's price before and after the change tests make. */
export const PRICE_BEFORE = '$1,200';
export const PRICE_AFTER = '$1,450';
/** The pricing sentence that carries the price, as the page states it. */
export const pricingSentence = (price: string) => `Northwind Robotics charges ${price} per robot per month for its Fleet plan, billed annually.`;

/** Paths of the company site the reader must never request (robots.txt disallows them for ReconBot). */
export const COMPANY_DISALLOWED = ['/internal/roadmap', '/admin'] as const;
/** Paths of the company site a GTM team needs, all reachable from the home page and the sitemaps. */
export const COMPANY_GTM_PAGES = ['/', '/pricing', '/product', '/about', '/customers', '/customers/kestrel-freight', '/blog', '/blog/fleet-plan-launch', '/careers', '/changelog', '/integrations', '/compare/northwind-vs-ironclad'] as const;

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const NAV = `<nav><a href="/">Home</a> <a href="/pricing?ref=nav">Pricing</a> <a href="/product">Product</a> <a href="/about">About</a>
  <a href="/customers">Customers</a> <a href="/blog">Blog</a> <a href="/careers">Careers</a> <a href="/changelog">Changelog</a></nav>`;

const article = (title: string, sentences: readonly string[], head = ''): SitePage => ({
  body: page(title, `${NAV}<main><h1>${title}</h1>${sentences.map((s) => `<p>${s}</p>`).join('\n')}</main><footer>&copy; 2026 Northwind Robotics.</footer>`, head),
});

/** The pricing page with the Fleet plan at `price` (PRICE_BEFORE at the start). */
export function pricingPage(price: string): string {
  return page(
    'Northwind Robotics pricing',
    `${NAV}<main><h1>Pricing</h1>
      <p>${pricingSentence(price)}</p>
      <p>The Starter plan costs $400 per robot per month with no minimum term.</p>
      <p>Every plan includes remote monitoring and a 30-day pilot.</p></main>`,
  );
}

const HOME_LINKS = [
  ...COMPANY_GTM_PAGES.slice(1).map((path) => `<a href="${path}">${path}</a>`),
  '<a href="/internal/roadmap">Roadmap (staff)</a>',
  '<a href="/admin">Admin</a>',
  '<a href="/events/calendar/2026/11">Events calendar</a>',
  '<a href="/search?q=robots&amp;page=1">Search</a>',
  '<a href="/old-pricing">Old pricing</a>',
  '<a href="/partners">Partners</a>',
  '<a href="/status">Status</a>',
  '<a href="/chain/1">Chain</a>',
  '<a href="/press">Press</a>',
  '<a href="/product/overview">Product overview</a>',
  '<a href="/index.html">Home again</a>',
  '<a href="/brochure">Brochure</a>',
  '<a href="/files/datasheet.pdf">Datasheet</a>',
  '<a href="/feed">Feed</a>',
  '<a href="https://www.northwind.example/about#team">Team</a>',
  '<a href="https://elsewhere.example/northwind">Elsewhere</a>',
].join('\n');

const HOME_SENTENCES = [
  'Northwind Robotics builds autonomous mobile robots that pick, pack and count stock in warehouses.',
  'More than 340 warehouses in North America and Europe run Northwind robots every day.',
  'Northwind Robotics was founded in 2017 in Rotterdam and employs 410 people.',
];

const PRODUCT_SENTENCES = [
  'The Northwind Picker lifts totes of up to 40 kilograms and works beside people on the warehouse floor.',
  'Northwind Fleet Manager plans routes for up to 500 robots in one building.',
];

function sitemapXml(domain: string, paths: readonly string[]): string {
  const urls = paths.map((path) => `<url><loc>https://${domain}${path}</loc><lastmod>2026-10-01</lastmod></url>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
}

function sitemapIndex(domain: string, paths: readonly string[]): string {
  const maps = paths.map((path) => `<sitemap><loc>https://${domain}${path}</loc></sitemap>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${maps}</sitemapindex>`;
}

/** The company site at `domain` (one of COMPANY_DOMAINS). */
export function companySite(domain: string): SiteSpec {
  const canonical = (path: string) => `<link rel="canonical" href="https://${domain}${path}">`;
  return {
    robots: [
      '# Northwind Robotics',
      'User-agent: *',
      'Disallow: /',
      'Crawl-delay: 30',
      '',
      'User-agent: ReconBot',
      'Disallow: /internal/',
      'Disallow: /admin',
      'Allow: /internal/press-kit',
      '',
      `Sitemap: https://${domain}/sitemap_index.xml`,
      '',
    ].join('\n'),
    sitemaps: {
      '/sitemap_index.xml': { xml: sitemapIndex(domain, ['/sitemaps/pages.xml', '/sitemaps/blog.xml.gz']) },
      // The disallowed roadmap is listed too: a sitemap never overrides robots.txt.
      '/sitemaps/pages.xml': { xml: sitemapXml(domain, ['/', '/pricing', '/product', '/about', '/customers', '/customers/kestrel-freight', '/careers', '/integrations', '/internal/roadmap']) },
      '/sitemaps/blog.xml.gz': { xml: sitemapXml(domain, ['/blog', '/blog/fleet-plan-launch', '/changelog', '/compare/northwind-vs-ironclad']), gzip: true },
    },
    pages: {
      '/': { body: page('Northwind Robotics: warehouse robots that pick, pack and count', `${NAV}<main><h1>Northwind Robotics</h1>${HOME_SENTENCES.map((s) => `<p>${s}</p>`).join('')}</main><aside>${HOME_LINKS}</aside>`, canonical('/')) },
      // The home page again under another path, declaring the home page canonical.
      '/index.html': { body: page('Northwind Robotics: warehouse robots that pick, pack and count', `${NAV}<main><h1>Northwind Robotics</h1>${HOME_SENTENCES.map((s) => `<p>${s}</p>`).join('')}</main>`, canonical('/')) },
      '/pricing': { body: pricingPage(PRICE_BEFORE) },
      '/product': article('The Northwind Picker and Fleet Manager', PRODUCT_SENTENCES, canonical('/product')),
      // A duplicate of /product with the same text, declaring /product canonical.
      '/product/overview': article('The Northwind Picker and Fleet Manager', PRODUCT_SENTENCES, canonical('/product')),
      '/about': article('About Northwind Robotics', ['Northwind Robotics is led by chief executive Ines Marchetti, who founded the company in 2017.', 'Northwind Robotics raised a $48 million Series B led by Harbour Ventures in March 2026.']),
      '/customers': article('Northwind Robotics customers', ['Northwind Robotics customers include Kestrel Freight, Dunmore Grocers and Alpenrad Logistics.', '<a href="/customers/kestrel-freight">Read the Kestrel Freight story</a>.']),
      '/customers/kestrel-freight': article('Kestrel Freight cut picking errors with Northwind', ['Kestrel Freight cut picking errors by 63 percent in six months after deploying 80 Northwind Pickers.']),
      '/blog': article('The Northwind blog', ['<a href="/blog/fleet-plan-launch">Introducing the Fleet plan</a>.']),
      '/blog/fleet-plan-launch': article('Introducing the Fleet plan', ['Northwind Robotics launched the Fleet plan in September 2026 for sites with more than 20 robots.']),
      '/careers': article('Careers at Northwind Robotics', ['Northwind Robotics is hiring a Senior Robotics Engineer in Rotterdam and an Account Executive in Chicago.']),
      '/changelog': article('Northwind changelog', ['Fleet Manager 4 added night-shift scheduling and battery swap planning in October 2026.']),
      '/integrations': article('Northwind integrations', ['Northwind Fleet Manager integrates with SAP Extended Warehouse Management, Manhattan Active WM and Blue Yonder.']),
      '/compare/northwind-vs-ironclad': article('Northwind vs Ironclad Automation', ['Compared with Ironclad Automation, Northwind Robotics needs no floor markers and deploys in two weeks.']),
      '/internal/roadmap': article('Internal roadmap', ['This disallowed roadmap sentence must never be read by ReconBot.']),
      '/admin': article('Admin', ['This disallowed admin sentence must never be read by ReconBot.']),
      '/press': { ...article('Northwind Robotics press', ['Northwind Robotics opened a second factory in Eindhoven in 2026.']), delayMs: 1_500 },
      // Redirects: on the site, to another host, to a private address, and a chain of 7 (past the 5 followed).
      '/old-pricing': { status: 301, location: '/pricing' },
      '/partners': { status: 302, location: 'https://partners.elsewhere.example/northwind' },
      '/status': { status: 302, location: 'http://10.0.0.7/status' },
      ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`/chain/${i + 1}`, { status: 302, location: i < 6 ? `/chain/${i + 2}` : '/about' }])),
      // Not HTML.
      '/brochure': { body: '%PDF-1.7 a brochure that is not a page', type: 'application/pdf' },
      '/files/datasheet.pdf': { body: '%PDF-1.7 a datasheet', type: 'application/pdf' },
      '/feed': { body: '<?xml version="1.0"?><rss version="2.0"><channel><title>Northwind</title></channel></rss>', type: 'application/rss+xml' },
    },
    generate: (path, query) => {
      // A calendar whose every month links to the next one, forever.
      const month = /^\/events\/calendar\/(\d{1,6})\/(\d{1,2})$/.exec(path);
      if (month) {
        const year = Number(month[1]);
        const next = Number(month[2]) === 12 ? `${year + 1}/1` : `${year}/${Number(month[2]) + 1}`;
        return { body: page(`Events in ${month[2]}/${year}`, `<p>No events this month.</p><a href="/events/calendar/${next}">Next month</a>`) };
      }
      // Search results whose every page links to the next one by query string, forever.
      if (path === '/search') {
        const n = Number(query.get('page') ?? '1');
        return { body: page('Search', `<p>Results for ${String(query.get('q') ?? '').slice(0, 50).replace(/[<&]/g, '')}.</p><a href="/search?q=robots&amp;page=${n + 1}">Next page</a>`) };
      }
      return undefined;
    },
  };
}

/** Four pages, Crawl-delay: 1 for ReconBot. */
export function politeSite(): SiteSpec {
  const links = '<a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a>';
  return {
    robots: 'User-agent: ReconBot\nCrawl-delay: 1\nAllow: /\n',
    pages: {
      '/': { body: page('Polite Systems', `<p>Polite Systems asks crawlers to wait one second between requests.</p>${links}`) },
      '/a': { body: page('Polite A', '<p>Page A of Polite Systems says the first thing.</p>') },
      '/b': { body: page('Polite B', '<p>Page B of Polite Systems says the second thing.</p>') },
      '/c': { body: page('Polite C', '<p>Page C of Polite Systems says the third thing.</p>') },
    },
  };
}

/** Hostile pages: huge, malformed, thousands of links. */
export function hostileSite(): SiteSpec {
  const thousands = Array.from({ length: 5_000 }, (_, i) => `<a href="/farm/${i}">Farm ${i}</a>`).join(' ');
  return {
    robots: 'User-agent: *\nAllow: /\n',
    pages: {
      '/': { body: page('Hostile Inc', '<p>Hostile Inc sells nothing but serves difficult pages.</p><a href="/huge">Huge</a> <a href="/malformed">Malformed</a> <a href="/links">Links</a>') },
      '/huge': { body: page('Huge', `<p>${'A very large page. '.repeat(170_000)}</p>`) },
      '/malformed': {
        body: '<html><head><title>Malformed <b>page</title><body><p>Hostile Inc was founded in 2020 in Oslo.<div><p><table><tr><td>cell<p>unclosed <a href="/farm/1"  href="/farm/2">double href</a> <a href=/malformed-target>no quotes<a href="javascript:alert(1)">js</a><a href="">empty</a><<<>>> &bogus; &#xFFFFFFFF; <script>"</script><p>Hostile Inc employs 12 people.',
      },
      '/links': { body: page('Links', `<p>Hostile Inc links to five thousand pages.</p>${thousands}`) },
    },
    generate: (path) => {
      const farm = /^\/farm\/(\d{1,6})$/.exec(path);
      return farm ? { body: page(`Farm ${farm[1]}`, `<p>Farm page ${farm[1]} of Hostile Inc.</p><a href="/farm/${Number(farm[1]) + 5000}">More</a>`) } : undefined;
    },
  };
}

/** Hostile robots.txt and sitemaps. */
export function hostileFilesSite(domain = HOSTILE_FILES_DOMAIN): SiteSpec {
  const bigUrls = Array.from({ length: 10_000 }, (_, i) => `/listed/${i}`);
  return {
    // Over 500 KiB: rules past the parsed prefix are ignored (the Disallow of /late/, which the home
    // page links to, among them). The sitemaps are listed before the padding, so they are read.
    // Read breadth first: loop-a, the bomb, the broken one, loop-b, then (from loop-b) big.
    robots: `User-agent: *\nAllow: /\n${['/loop-a.xml', '/bomb.xml.gz', '/broken.xml'].map((path) => `Sitemap: https://${domain}${path}\n`).join('')}`
      + `${'# padding line of a robots.txt that is far too long\n'.repeat(12_000)}User-agent: ReconBot\nDisallow: /late/\n`,
    sitemaps: {
      // 16 MiB of XML once inflated (past the 10 MiB a sitemap may inflate to), about 16 KiB compressed.
      '/bomb.xml.gz': { xml: sitemapXml(domain, ['/from-bomb']), gzip: true, padTo: 16 * 1024 * 1024 },
      '/loop-a.xml': { xml: sitemapIndex(domain, ['/loop-b.xml']) },
      // Back to loop-a, and on to the big sitemap (read last, when every other file has been).
      '/loop-b.xml': { xml: sitemapIndex(domain, ['/loop-a.xml', '/big.xml']) },
      '/big.xml': { xml: sitemapXml(domain, bigUrls) },
      '/broken.xml': { xml: '<?xml version="1.0"?><urlset><url><loc>https://' + domain + '/from-broken</loc></url><url><loc>' },
    },
    pages: {
      '/': { body: page('Hostile Files Ltd', '<p>Hostile Files Ltd publishes difficult robots.txt and sitemap files.</p><a href="/late/1">Late</a>') },
      '/from-bomb': { body: page('Bomb', '<p>This page is listed only inside the gzip bomb.</p>') },
      '/from-broken': { body: page('Broken', '<p>This page is listed only in a broken sitemap.</p>') },
    },
    generate: (path) => (/^\/(listed|late)\/\d{1,5}$/.test(path) ? { body: page(path, `<p>Listed page ${path.slice(8)} of Hostile Files Ltd.</p>`) } : undefined),
  };
}

/** A slow host: one page never answers, one answers after 12 s. */
export function slowSite(): SiteSpec {
  return {
    robots: 'User-agent: *\nAllow: /\n',
    pages: {
      '/': { body: page('Slowpoke', '<p>Slowpoke Networks answers its home page at once.</p><a href="/hang">Hang</a> <a href="/slow">Slow</a>') },
      '/hang': { body: page('Hang', '<p>Never sent.</p>'), delayMs: 'hang' },
      '/slow': { body: page('Slow', '<p>Sent after twelve seconds.</p>'), delayMs: 12_000 },
    },
  };
}

/** Every fixture site by host, except OFFLINE_DOMAIN (a port nothing listens on). */
export function fixtureSites(): Record<string, SiteSpec> {
  return {
    ...Object.fromEntries([...COMPANY_DOMAINS, SERVER_CHECK_DOMAIN].map((domain) => [domain, companySite(domain)])),
    [POLITE_DOMAIN]: politeSite(),
    [HOSTILE_DOMAIN]: hostileSite(),
    [HOSTILE_FILES_DOMAIN]: hostileFilesSite(),
    [SLOW_DOMAIN]: slowSite(),
    ...withChangingBoard(realWebSites()),
    ...changingSites(),
    ...multiHostSites(),
  };
}

/** The real-web sites with the changing site's board on the same Greenhouse API host (one host serves every board). */
function withChangingBoard(sites: Record<string, SiteSpec>): Record<string, SiteSpec> {
  const api = sites[GREENHOUSE_API_HOST]!;
  return { ...sites, [GREENHOUSE_API_HOST]: { ...api, pages: { ...api.pages, ...changingBoardPages() } } };
}
