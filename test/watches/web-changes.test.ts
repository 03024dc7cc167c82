import { beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../src/ground/schemas/changes.ts';
import type { ExecutionRecord, WatchView } from '../../src/ground/schemas/watch.ts';
import { call, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { setSitePage } from '../helpers/sites.ts';
import {
  CHANGELOG_ENTRIES,
  CHANGING_BOARD,
  CHANGING_BOARD_PATH,
  CHANGING_DOMAIN,
  CHANGING_HOST,
  CHANGING_ROLES,
  changingBoard,
  changingChangelog,
  changingPricing,
} from '../sites/changing-site.ts';
import { GREENHOUSE_API_HOST } from '../sites/real-web-site.ts';
import { createWatch, json, runNow, untilExecutions } from './helpers.ts';

/**
 * The proof on a site shaped like the real web (test/sites/changing-site.ts, owned by this
 * file): a plain watch (no query) on a company known only by its domain creates the company, reads
 * its site, then reports no change over ten executions although every load of the site differs (a
 * rotating customer quote, the date and time, a visitor counter, a CSRF token and request id, the
 * copyright year); then, after the company raised a price, opened one role and closed another and
 * published a changelog entry, the next execution reports exactly those four changes, each cited.
 */
const PRICING_URL = `https://${CHANGING_HOST}/pricing`;
const roleUrl = (id: number) => `https://boards.greenhouse.io/${CHANGING_BOARD}/jobs/${id}`;
const NEW_ROLE = { id: 503, title: 'Solutions Engineer', location: 'Berlin' };
const NEW_ENTRY = { slug: 'changing-3-2', title: 'Changing 3.2: Salesforce sync', text: 'Changing 3.2 syncs every report to Salesforce.' };

describe('a plain watch on a company site shaped like the real web', () => {
  let org: TestOrganization;
  let watch: WatchView;
  const executions: ExecutionRecord[] = [];
  let changed: ExecutionRecord;

  beforeAll(async () => {
    org = await createOrganization();
    watch = await createWatch(org.key, { target: { type: 'company', key: CHANGING_DOMAIN }, frequency: '1d', tier: 'lite', costCapMicros: 60_000 });
    executions.push(...(await untilExecutions(watch.id, 1)));
    for (let i = 1; i < 10; i++) executions.push(await runNow(org.key, watch.id));

    await setSitePage(CHANGING_HOST, '/pricing', changingPricing('$29', '$59'));
    await setSitePage(GREENHOUSE_API_HOST, CHANGING_BOARD_PATH, changingBoard([CHANGING_ROLES[0]!, NEW_ROLE]), { type: 'application/json' });
    const changelog = changingChangelog([NEW_ENTRY, ...CHANGELOG_ENTRIES]);
    await setSitePage(CHANGING_HOST, '/changelog/rss.xml', changelog.feed, { type: 'application/rss+xml' });
    changed = await runNow(org.key, watch.id);
  }, 180_000);

  it('creates the company it was given by its domain, and reads its site from the first execution', async () => {
    expect(executions[0]).toMatchObject({ outcome: 'succeeded', findings: { since: null, changes: [] }, siteRead: { status: 'completed' } });
    const company = await json<{ key: string }>(await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'company', key: CHANGING_DOMAIN } }), 200);
    expect(company.key).toBe(CHANGING_DOMAIN);
  });

  it('reports no change over ten executions of the unchanged site, though every load of it differs', () => {
    expect(executions).toHaveLength(10);
    for (const execution of executions.slice(1)) {
      expect(execution.outcome).toBe('succeeded');
      expect(execution.findings!.changes).toEqual([]);
      expect(execution.findings!.changeCounts.total).toBe(0);
    }
  });

  it('then reports the price change as data, the role opened and the one closed, and the new changelog entry: each cited, nothing else', () => {
    const { changes, changeCounts } = changed.findings!;
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'pricing', action: 'changed', plan: 'Growth', before: '$49', after: '$59', url: PRICING_URL }));
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'hiring', action: 'opened', text: NEW_ROLE.title, location: NEW_ROLE.location, url: roleUrl(NEW_ROLE.id) }));
    expect(changes).toContainEqual(
      expect.objectContaining({ kind: 'hiring', action: 'closed', text: CHANGING_ROLES[1]!.title, url: roleUrl(CHANGING_ROLES[1]!.id), lastSeenAt: expect.stringMatching(/^2\d{3}-/) }),
    );
    expect(changes).toContainEqual(expect.objectContaining({ action: 'new-entry', kind: 'product', text: NEW_ENTRY.title, url: `https://${CHANGING_HOST}/changelog/${NEW_ENTRY.slug}` }));
    expect(changes.map((change: Change) => `${change.action} ${change.text}`)).toHaveLength(4);
    expect(changeCounts).toMatchObject({ total: 4, byKind: { pricing: 1, hiring: 2, product: 1 } });
  });

  it('lists the changes in the feed of every watch, filtered by kind and company', async () => {
    const pricing = await json<{ changes: (Change & { company: string; executionId: string })[] }>(
      await call(`/api/v1/oms/changes?kind=pricing&company=${CHANGING_DOMAIN}`, { key: org.key }),
      200,
    );
    expect(pricing.changes).toEqual([expect.objectContaining({ kind: 'pricing', before: '$49', after: '$59', company: CHANGING_DOMAIN, executionId: changed.id })]);
    const all = await json<{ changes: Change[] }>(await call('/api/v1/oms/changes', { key: org.key }), 200);
    expect(all.changes).toHaveLength(4);
    // Pricing first, as the execution lists them.
    expect(all.changes[0]!.kind).toBe('pricing');
  });

  it("opens the execution's brief with what changed, grouped by kind and cited", async () => {
    const brief = await json<{ properties: { markdown: string } }>(await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'brief', key: changed.briefKey } }), 200);
    const markdown = brief.properties.markdown;
    expect(markdown).toMatch(/## What changed since/);
    expect(markdown).toMatch(/### Pricing\n\n- Growth: \$49 → \$59: .*\(https:\/\/www\.changing\.example\/pricing\)/);
    expect(markdown).toMatch(/### Hiring\n\n- Role opened: Solutions Engineer, Berlin/);
    expect(markdown.indexOf('### Pricing')).toBeLessThan(markdown.indexOf('### Hiring'));
  });
});
