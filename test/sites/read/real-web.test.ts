import { beforeAll, describe, expect, it } from 'vitest';
import { call, createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { connectMcpClient } from '../../helpers/mcp-client.ts';
import { readSiteToEnd, type FinishedRead } from '../../helpers/site-reads.ts';
import { requestedPaths, siteLog } from '../../helpers/sites.ts';
import { GREENHOUSE_API_HOST, REAL_WEB_BOARD, REAL_WEB_DOMAIN, REAL_WEB_FACTS, REAL_WEB_HOST, REAL_WEB_NOINDEX_SENTENCE } from '../real-web-site.ts';

/**
 * One site read of a site shaped like the real web (test/sites/real-web-site.ts): the apex
 * redirects to www., every page names the home page canonical, the annual price hides in a tab
 * panel, a price sheet is a PDF, the press page pushes back once with Retry-After, open roles are on
 * a Greenhouse board, older changelog entries are only in the feed, one page is noindex, and one is
 * rendered by its script. Right after the read, research cites each fact from its real URL and
 * never the noindex page. This file owns the realweb hosts (it reads their logs).
 */

let org: TestOrganization;
let read: FinishedRead;

async function brief(topic: string): Promise<string> {
  const response = await call('/api/v1/commands/research', { key: org.key, body: { topic } });
  expect(response.status).toBe(200);
  return (await response.text()).replace(/\s+/g, ' ');
}

async function source(url: string): Promise<{ properties: Record<string, unknown> } | null> {
  const response = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'source', key: url } });
  return response.status === 200 ? response.json() : null;
}

beforeAll(async () => {
  org = await createOrganization();
  read = await readSiteToEnd(org, { domain: REAL_WEB_DOMAIN, pages: 40 });
  expect(read.status, read.report).toBe('completed');
}, 60_000);

describe('a read of a site shaped like the real web', () => {
  it("follows the apex to www., reads www.'s own robots.txt, and stores URLs as they finally are", async () => {
    expect(read.report).toContain(`Hosts read: ${REAL_WEB_HOST}`);
    const apex = requestedPaths(await siteLog(REAL_WEB_DOMAIN));
    const www = requestedPaths(await siteLog(REAL_WEB_HOST));
    // The apex is asked for its robots.txt (which redirects) and the first page; from then on its URLs are read under www.
    expect(apex.length).toBeLessThanOrEqual(4);
    expect(www).toContain('/robots.txt');
    expect(await source(`https://${REAL_WEB_HOST}/pricing`)).not.toBeNull();
    expect(await source(`https://${REAL_WEB_DOMAIN}/pricing`)).toBeNull();
    // www.'s wildcard rule for ReconBot: the draft is never requested, though the home page and the sitemap link it.
    expect(www).not.toContain('/drafts/q3-pricing');
  });

  it('keeps a page whose canonical link names another page under its own URL, and follows its links', async () => {
    expect(read.report).toMatch(/canonical link\(s\) naming another page ignored/);
    const pricing = await source(REAL_WEB_FACTS.annualPrice.url);
    expect(String(pricing?.properties.content)).toContain(REAL_WEB_FACTS.annualPrice.sentence);
  });

  it('waits as the press page asks (429, Retry-After) and reads it on the retry', async () => {
    const press = (await siteLog(REAL_WEB_HOST)).requests.filter((request) => request.path === '/press');
    expect(press.map((request) => request.status)).toEqual([429, 200]);
    expect(press[1]!.at - press[0]!.at).toBeGreaterThanOrEqual(900);
    expect(read.report).toMatch(/asked us to slow down 1 time/);
  });

  it('reads the PDF price sheet, the feed-only changelog entry and the Greenhouse roles as sources', async () => {
    expect(String((await source(REAL_WEB_FACTS.priceSheet.url))?.properties.content)).toContain(REAL_WEB_FACTS.priceSheet.sentence);
    expect(String((await source(REAL_WEB_FACTS.feedOnly.url))?.properties.content)).toContain(REAL_WEB_FACTS.feedOnly.sentence);
    const role = await source(REAL_WEB_FACTS.role.url);
    expect(String(role?.properties.content)).toContain(REAL_WEB_FACTS.role.sentence);
    expect(role?.properties.domain).toBe(REAL_WEB_DOMAIN);
    // The API host serves other tests' boards too (test/sites/changing-site.ts): this board's requests only.
    const boardPaths = requestedPaths(await siteLog(GREENHOUSE_API_HOST)).filter((path) => path.startsWith(`/v1/boards/${REAL_WEB_BOARD}/`));
    expect(boardPaths).toEqual([`/v1/boards/${REAL_WEB_BOARD}/jobs?content=true`]);
    expect(read.report).toMatch(/Documents \(PDF\) read: 1\./);
  });

  it('keeps the noindex page out of the sources and counts it', async () => {
    expect(await source(`https://${REAL_WEB_HOST}/staff-preview`)).toBeNull();
    expect(read.report).toMatch(/Not indexed \(the page asks for noindex; no source kept\): 1/);
  });

  it('renders the page only a browser sees', async () => {
    const customers = await source(REAL_WEB_FACTS.rendered.url);
    expect(String(customers?.properties.content)).toContain(REAL_WEB_FACTS.rendered.sentence);
    expect(read.report).toMatch(/Rendered in a browser[^:]*: 1\./);
  });

  it.each([
    ['annual price in a hidden tab', 'Realweb Growth plan annual price per seat per year', REAL_WEB_FACTS.annualPrice],
    ['the PDF price sheet', 'Realweb Enterprise plan price per month', REAL_WEB_FACTS.priceSheet],
    ['the page that pushed back', 'Realweb Lisbon office opening', REAL_WEB_FACTS.pressKit],
    ['the feed-only changelog entry', 'Realweb SAML single sign-on', REAL_WEB_FACTS.feedOnly],
    ['the Greenhouse role', 'Realweb hiring Solutions Architect Lisbon', REAL_WEB_FACTS.role],
    ['the rendered page', 'Realweb customers', REAL_WEB_FACTS.rendered],
  ])('lets research cite %s from its real URL', async (_what, topic, fact) => {
    const text = await brief(topic);
    expect(text).toContain(fact.sentence.replace(/\.$/, ''));
    expect(text).toContain(fact.url);
  });

  it('gives the same report as data over MCP (run-status structuredContent)', async () => {
    const client = await connectMcpClient(org.key);
    const result = await client.callTool({ name: 'run-status', arguments: { kind: 'site-read', id: read.id } });
    await client.close();
    const report = (result.structuredContent as { siteRead: Record<string, unknown> }).siteRead;
    expect(report).toMatchObject({
      domain: REAL_WEB_DOMAIN,
      hosts: [REAL_WEB_HOST],
      documents: 1,
      rendered: 1,
      noindex: { count: 1, urls: [`https://${REAL_WEB_HOST}/staff-preview`] },
      feeds: [{ url: `https://${REAL_WEB_HOST}/changelog/rss.xml`, kind: 'rss', entries: 2 }],
      jobBoards: [{ kind: 'greenhouse', token: 'realweb', roles: 2, stored: 2 }],
      pushback: { refusals: 1 },
      stopped: null,
    });
    expect(report.robots).toEqual(expect.arrayContaining([expect.objectContaining({ host: REAL_WEB_HOST, source: 'parsed' })]));
  });

  it('never lets research quote the noindex page', async () => {
    const text = await brief('Realweb staff preview price per seat');
    expect(text).not.toContain(REAL_WEB_NOINDEX_SENTENCE.replace(/\.$/, ''));
    expect(text).not.toContain('/staff-preview');
  });
});
