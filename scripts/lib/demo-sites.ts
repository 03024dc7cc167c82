/**
 * The demo market's sites, built from the demo knowledge base (scripts/seed/knowledge-base/
 * demo.ndjson): each domain its sources come from becomes a site whose pages are those sources at
 * their paths (title and sentences as HTML, with links to the site's other pages), with a home page
 * (the source at `/`, or the company's description and a list of pages), a robots.txt that allows
 * all and names a sitemap listing every page. `npm run dev` serves them on loopback so that a site
 * read can be tried without a network.
 */
import { readFileSync } from 'node:fs';
import type { SitePage, SiteSpec } from './site-types.ts';

interface DemoSource {
  title: string;
  url: string;
  content: string;
}

interface DemoCompany {
  name: string;
  domain: string;
  description?: string;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One paragraph per sentence (the demo content has no dots inside sentences, see its README). */
const paragraphs = (content: string) =>
  (content.match(/[^.!?]+[.!?]+/g) ?? [content])
    .map((sentence) => `<p>${escape(sentence.trim())}</p>`)
    .join('\n');

function html(title: string, main: string, nav: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><nav>${nav}</nav><main><h1>${escape(title)}</h1>\n${main}\n</main></body></html>`;
}

/** The sites of the knowledge base in `file` (NDJSON, as DEMO_KNOWLEDGE_BASE) by domain (www. dropped), in its order. */
export function demoSites(file: string): Record<string, SiteSpec> {
  const sources = new Map<string, DemoSource[]>();
  const companies = new Map<string, DemoCompany>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as { type?: string; properties?: Record<string, unknown> };
    if (record.type === 'company') {
      const company = record.properties as unknown as DemoCompany;
      companies.set(company.domain, company);
    } else if (record.type === 'source') {
      const source = record.properties as unknown as DemoSource;
      const domain = new URL(source.url).hostname.replace(/^www\./, '');
      sources.set(domain, [...(sources.get(domain) ?? []), source]);
    }
  }

  const sites: Record<string, SiteSpec> = {};
  for (const [domain, list] of sources) {
    const company = companies.get(domain);
    const byPath = new Map(list.map((source) => [new URL(source.url).pathname, source]));
    const paths = [...new Set(['/', ...byPath.keys()])];
    const nav = paths.map((p) => `<a href="${escape(p)}">${escape(p === '/' ? 'Home' : (byPath.get(p)?.title ?? p))}</a>`).join(' ');
    const pages: Record<string, SitePage> = {};
    for (const [p, source] of byPath) pages[p] = { body: html(source.title, paragraphs(source.content), nav) };
    if (!pages['/']) {
      const name = company?.name ?? domain;
      pages['/'] = { body: html(name, paragraphs(company?.description ?? `${name} publishes the pages listed here.`), nav) };
    }
    const urls = paths.map((p) => `<url><loc>https://${domain}${escape(p)}</loc></url>`).join('');
    sites[domain] = {
      pages,
      robots: `User-agent: *\nAllow: /\n\nSitemap: https://${domain}/sitemap.xml\n`,
      sitemaps: { '/sitemap.xml': { xml: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>` } },
    };
  }
  return sites;
}
