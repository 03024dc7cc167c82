import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { plainText } from '../helpers/markdown-text.ts';
import { createWatch, GLOBEX_PRICING_WATCH, importPricingPage, json, runNow, marketOrganization, NEW_PRICE, OLD_PRICE, PRICING_URL, untilExecutions, NO_WEB_CHANGE } from './helpers.ts';

async function briefOf(key: string, execution: ExecutionRecord): Promise<string> {
  const brief = await json<{ properties: { markdown: string } }>(await call('/api/v1/oms/objects/get', { key, body: { type: 'brief', key: execution.briefKey } }), 200);
  return brief.properties.markdown;
}

describe('a watch says what changed', () => {
  it("reports a changed price on the target's pricing page: the new sentence added, the old one removed, each with its source, in the record and at the top of the brief", async () => {
    const org = await marketOrganization();
    await importPricingPage(org.key, OLD_PRICE);
    const watch = await createWatch(org.key, GLOBEX_PRICING_WATCH);

    // The first execution is the baseline: nothing to compare with.
    const [first] = await untilExecutions(watch.id, 1);
    expect(first).toMatchObject({ outcome: 'succeeded', findings: { since: null, added: [], removed: [] } });
    const firstBrief = await briefOf(org.key, first!);
    expect(firstBrief).toContain('\n## First reading\n');
    expect(plainText(firstBrief)).toContain(OLD_PRICE);

    // The page changes its price; the next execution reads the new page.
    await importPricingPage(org.key, NEW_PRICE);
    const second = await runNow(org.key, watch.id);
    expect(second.outcome).toBe('succeeded');
    expect(second.findings).toEqual({
      since: first!.id,
      ...NO_WEB_CHANGE,
      added: [{ text: NEW_PRICE, url: PRICING_URL }],
      removed: [{ text: OLD_PRICE, url: PRICING_URL }],
    });

    // The brief opens (after its title and meta line) with what changed, cited, before anything else.
    const brief = await briefOf(org.key, second);
    const since = `${first!.finishedAt.slice(0, 10)} ${first!.finishedAt.slice(11, 16)} UTC`;
    const section = brief.slice(brief.indexOf('\n## '), brief.indexOf('**Answer:**'));
    expect(section.trim()).toBe(
      [
        `## What changed since ${since}`,
        '',
        `Compared with the brief of execution ${first!.id}: 1 cited claim added, 1 removed.`,
        '',
        '### Added',
        '',
        `- "Globex pricing starts at $129 per seat per month on the Team plan." (${PRICING_URL})`,
        '',
        '### Removed',
        '',
        `- "Globex pricing starts at $99 per seat per month on the Team plan." (${PRICING_URL})`,
      ].join('\n'),
    );

    // The executions list shows the same findings, newest first.
    const page = await json<{ executions: ExecutionRecord[] }>(await call(`/api/v1/oms/watches/executions?id=${watch.id}`, { key: org.key }), 200);
    expect(page.executions.map((e) => e.findings)).toEqual([second.findings, first!.findings]);
  });

  it('reports no change when the sources are the same: empty lists since the previous execution, and "No change since" in the brief', async () => {
    const org = await marketOrganization();
    await importPricingPage(org.key, OLD_PRICE);
    const watch = await createWatch(org.key, GLOBEX_PRICING_WATCH);
    const [first] = await untilExecutions(watch.id, 1);

    const second = await runNow(org.key, watch.id);
    expect(second.findings).toEqual({ since: first!.id, ...NO_WEB_CHANGE, added: [], removed: [] });
    const brief = await briefOf(org.key, second);
    const since = `${first!.finishedAt.slice(0, 10)} ${first!.finishedAt.slice(11, 16)} UTC`;
    expect(brief).toContain(`\n## No change since ${since}\n\nThis brief cites the same `);
    expect(brief).not.toContain('## What changed');

    // Each execution compares with the one just before it.
    const third = await runNow(org.key, watch.id);
    expect(third.findings).toEqual({ since: second.id, ...NO_WEB_CHANGE, added: [], removed: [] });
  });
});
