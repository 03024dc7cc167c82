import { describe, expect, it } from 'vitest';
import { siteReaderUserAgent } from '../../src/sites/user-agent.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { readSiteToEnd } from '../helpers/site-reads.ts';
import { resetSiteLog, setSitePage, siteLog } from '../helpers/sites.ts';
import { COMPANY_DOMAINS, PRICE_AFTER, PRICE_BEFORE, pricingPage, pricingSentence } from '../sites/fixture-sites.ts';
import { createWatch, GLOBEX_WATCH, marketOrganization, runNow, untilExecutions } from './helpers.ts';

/**
 * The proof, end to end: a watch on a company whose site Recon reads itself re-reads the site
 * before each execution (conditional requests: unchanged pages answer 304) and, after the site's price
 * changes, reports the new price sentence in findings.added and the old one in findings.removed. This
 * file owns COMPANY_DOMAINS[5] (it changes its pricing page and reads its log).
 */
const DOMAIN = COMPANY_DOMAINS[5];
const PRICING_URL = `https://${DOMAIN}/pricing`;

describe('a watch on a company whose site Recon reads', () => {
  it('re-reads the site before researching and reports the changed price as added and removed claims', async () => {
    const org = await createOrganization();
    await setSitePage(DOMAIN, '/pricing', pricingPage(PRICE_BEFORE));
    const read = await readSiteToEnd(org, { domain: DOMAIN, pages: 12 });
    expect(read.status).toBe('completed');

    await resetSiteLog(DOMAIN);
    const watch = await createWatch(org.key, {
      target: { type: 'company', key: DOMAIN },
      query: 'Northwind Robotics Fleet plan price per robot',
      frequency: '1d',
      tier: 'lite',
      costCapMicros: 30_000,
    });
    const [first] = await untilExecutions(watch.id, 1);
    expect(first).toMatchObject({ outcome: 'succeeded', findings: { since: null }, siteRead: { runId: expect.stringMatching(/^[0-9a-f]{64}$/), status: 'completed' } });
    // Before researching, the execution read the site again: every page it had answered 304.
    const reread = (await siteLog(DOMAIN)).requests.filter((r) => r.method === 'GET' && r.ifNoneMatch !== undefined);
    expect(reread.length).toBeGreaterThan(5);
    expect(reread.every((r) => r.status === 304)).toBe(true);
    // Started by an alarm, with no request: the read still names the /bot page of the origin the watch was created at.
    expect(new Set(reread.map((r) => r.userAgent))).toEqual(new Set([siteReaderUserAgent('https://recon.test/bot')]));

    await setSitePage(DOMAIN, '/pricing', pricingPage(PRICE_AFTER));
    const second = await runNow(org.key, watch.id);
    expect(second.outcome).toBe('succeeded');
    expect(second.findings!.since).toBe(first!.id);
    expect(second.findings!.added).toContainEqual({ text: pricingSentence(PRICE_AFTER), url: PRICING_URL });
    expect(second.findings!.removed).toContainEqual({ text: pricingSentence(PRICE_BEFORE), url: PRICING_URL });
    // From the page itself, whatever the brief happened to quote: the new price and the old one, as data.
    expect(second.findings!.changes).toContainEqual(expect.objectContaining({ kind: 'pricing', action: 'changed', before: PRICE_BEFORE, after: PRICE_AFTER, url: PRICING_URL }));
  });

  it('says no site was read for a company whose site this deployment does not read (offline: only the overridden ones)', async () => {
    const org = await marketOrganization();
    const watch = await createWatch(org.key, GLOBEX_WATCH);
    const [first] = await untilExecutions(watch.id, 1);
    expect(first).toMatchObject({ outcome: 'succeeded', siteRead: null });
  });
});
