import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../../helpers/fixtures.ts';
import { readSiteToEnd } from '../../helpers/site-reads.ts';
import { forgetSharedCopy, requestedPaths, resetSiteLog, siteLog } from '../../helpers/sites.ts';
import { MULTI_HOST_DOCS, MULTI_HOST_DOMAIN, MULTI_HOST_FACTS, MULTI_HOST_PRIVATE_PATH } from '../multi-host-site.ts';

/**
 * A site is its apex and `www.`; another host of the domain (its docs) is read only when the read
 * names it, with its own robots.txt and sitemap. This file owns multihost.example's hosts.
 */

async function sourceContent(key: string, url: string): Promise<string | null> {
  const response = await call('/api/v1/oms/objects/get', { key, body: { type: 'source', key: url } });
  return response.status === 200 ? String(((await response.json()) as { properties: { content: string } }).properties.content) : null;
}

async function freshRead(body: Record<string, unknown>) {
  const org = await createOrganization();
  await forgetSharedCopy(MULTI_HOST_DOMAIN);
  await Promise.all([resetSiteLog(MULTI_HOST_DOMAIN), resetSiteLog(MULTI_HOST_DOCS)]);
  const read = await readSiteToEnd(org, { domain: MULTI_HOST_DOMAIN, pages: 20, ...body });
  expect(read.status, read.report).toBe('completed');
  return { org, read, docsLog: requestedPaths(await siteLog(MULTI_HOST_DOCS)) };
}

describe('a read that names another host of the site', () => {
  it("reads the named host as the site: its robots.txt, its sitemap, its pages, and the apex's link to it", async () => {
    const { org, read, docsLog } = await freshRead({ hosts: [MULTI_HOST_DOCS] });
    expect(docsLog).toContain('/robots.txt');
    expect(docsLog).toContain('/sitemap.xml');
    expect(docsLog).not.toContain(MULTI_HOST_PRIVATE_PATH);
    expect(read.report).toContain(`robots.txt of ${MULTI_HOST_DOCS}`);
    expect(read.report).toMatch(new RegExp(`Hosts read: [^\n]*${MULTI_HOST_DOCS.replace(/\./g, '\\.')}`));
    for (const fact of Object.values(MULTI_HOST_FACTS)) expect(await sourceContent(org.key, fact.url), fact.url).toContain(fact.sentence);
    expect(await sourceContent(org.key, `https://${MULTI_HOST_DOCS}${MULTI_HOST_PRIVATE_PATH}`)).toBeNull();
  });

  it('leaves a host it does not name off-site: nothing is requested of it', async () => {
    const { org, docsLog } = await freshRead({});
    expect(docsLog).toEqual([]);
    expect(await sourceContent(org.key, MULTI_HOST_FACTS.pricing.url)).toContain(MULTI_HOST_FACTS.pricing.sentence);
    expect(await sourceContent(org.key, MULTI_HOST_FACTS.guide.url)).toBeNull();
  });

  it('refuses a host of another domain, the apex or www. again, a host named twice, and more than 10, writing nothing', async () => {
    const org = await createOrganization();
    const refusals: [unknown, RegExp][] = [
      [['docs.other.example'], /not a host of multihost\.example; another domain is another site/],
      [[`www.${MULTI_HOST_DOMAIN}`], /is read anyway/],
      [[MULTI_HOST_DOCS, 'DOCS.multihost.example.'], /named twice/],
      [['https://docs.multihost.example/'], /must be a host name/],
      [['docs.multihost.example:8443'], /must be a host name/],
      [Array.from({ length: 11 }, (_, i) => `h${i}.${MULTI_HOST_DOMAIN}`), /at most 10|10/],
    ];
    for (const [hosts, message] of refusals) {
      const response = await call('/api/v1/oms/sites', { key: org.key, body: { domain: MULTI_HOST_DOMAIN, hosts } });
      expect(response.status, JSON.stringify(hosts)).toBe(400);
      const body = await response.json<{ error: string; details: { path: string; message: string }[] }>();
      expect(body.error).toBe('invalid_input');
      expect(body.details.every((detail) => detail.path.startsWith('hosts')), JSON.stringify(body.details)).toBe(true);
      expect(body.details.map((detail) => detail.message).join(' ')).toMatch(message);
    }
    const runs = await call('/api/v1/runs?kind=site-read', { key: org.key });
    expect((await runs.json<{ runs: unknown[] }>()).runs).toEqual([]);
  });
});
