/**
 * A company site on more than its apex and `www.`: its docs on `docs.multihost.example`, a host of
 * its own with its own robots.txt and sitemap, which the apex links to (test/sites/read/named-hosts.test.ts).
 * A read that names the docs host reads it as part of the site; one that does not leaves the link
 * off-site. Served on loopback as two hosts, each its own SITE_ORIGIN_OVERRIDES entry.
 */
import type { SiteSpec } from '../../scripts/lib/site-types.ts';

export const MULTI_HOST_DOMAIN = 'multihost.example';
export const MULTI_HOST_DOCS = `docs.${MULTI_HOST_DOMAIN}`;

/** The facts, each as the sentence that states it, on the URL that states it. */
export const MULTI_HOST_FACTS = {
  pricing: { sentence: 'The Multihost Team plan costs $36 per seat per month.', url: `https://${MULTI_HOST_DOMAIN}/pricing` },
  guide: { sentence: 'Multihost exports every board as CSV or Parquet from the admin console.', url: `https://${MULTI_HOST_DOCS}/guide/export` },
  sitemapOnly: { sentence: 'Multihost keeps audit events for 400 days on the Enterprise plan.', url: `https://${MULTI_HOST_DOCS}/guide/retention` },
} as const;

/** A sentence on a docs page the docs host's robots.txt disallows: never requested. */
export const MULTI_HOST_PRIVATE_PATH = '/private/roadmap';

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

function apex(): SiteSpec {
  return {
    robots: 'User-agent: *\nAllow: /\n',
    pages: {
      '/': { body: page('Multihost', `<p>Multihost is a whiteboard for planning teams.</p><a href="/pricing">Pricing</a> <a href="https://${MULTI_HOST_DOCS}/">Docs</a>`) },
      '/pricing': { body: page('Multihost pricing', `<p>${MULTI_HOST_FACTS.pricing.sentence}</p>`) },
    },
  };
}

function docs(): SiteSpec {
  return {
    robots: `User-agent: *\nDisallow: /private/\n\nSitemap: https://${MULTI_HOST_DOCS}/sitemap.xml\n`,
    sitemaps: {
      '/sitemap.xml': {
        xml: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://${MULTI_HOST_DOCS}/guide/retention</loc></url><url><loc>https://${MULTI_HOST_DOCS}${MULTI_HOST_PRIVATE_PATH}</loc></url></urlset>`,
      },
    },
    pages: {
      '/': { body: page('Multihost docs', `<p>Guides for Multihost administrators.</p><a href="/guide/export">Export</a> <a href="${MULTI_HOST_PRIVATE_PATH}">Roadmap</a>`) },
      '/guide/export': { body: page('Exporting boards', `<p>${MULTI_HOST_FACTS.guide.sentence}</p>`) },
      '/guide/retention': { body: page('Retention', `<p>${MULTI_HOST_FACTS.sitemapOnly.sentence}</p>`) },
      [MULTI_HOST_PRIVATE_PATH]: { body: page('Roadmap', '<p>Multihost will ship offline boards next spring.</p>') },
    },
  };
}

/** The site's two hosts, as fixtureSites() serves them. */
export function multiHostSites(): Record<string, SiteSpec> {
  return { [MULTI_HOST_DOMAIN]: apex(), [MULTI_HOST_DOCS]: docs() };
}
