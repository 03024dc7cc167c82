import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE_WINDOW, evidenceExpression } from '../../src/runs/evidence.ts';
import { AREAS, assessArea } from '../../src/runs/gtm-audit.ts';
import { createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { importLargeKnowledgeBase } from '../helpers/large-knowledge-base.ts';

// "team" is one of the corpus's most common words: auditing team.com matches thousands of passages.
const COMPANY = { key: 'team.com', name: 'Team' };

let org: TestOrganization;
beforeAll(async () => {
  org = await createOrganization();
  await importLargeKnowledgeBase(org.key, 3_000);
}, 120_000);

/** Source keys of the newest EVIDENCE_WINDOW passages naming the company (or on its domain) and an area term, and how many match in all. */
async function newestWindow(area: keyof typeof AREAS) {
  const expression = evidenceExpression(org.id, COMPANY, area);
  const all = await env.DB.prepare(`SELECT count(*) AS n FROM passages_fts WHERE passages_fts MATCH ?1`).bind(expression).first<{ n: number }>();
  const { results } = await env.DB.prepare(
    `SELECT p.source_key AS key FROM (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2) h JOIN passages p ON p.id = h.rowid`,
  )
    .bind(expression, EVIDENCE_WINDOW)
    .all<{ key: string }>();
  return { matching: all!.n, keys: new Set(results.map((r) => r.key)) };
}

describe('gtm-audit evidence is bounded', () => {
  it(`reads only the newest ${EVIDENCE_WINDOW} matching passages of an area, and says so in the report`, async () => {
    // Every step reads every area's window (a sentence is filed under one area, whichever step runs).
    const windows = await Promise.all((Object.keys(AREAS) as (keyof typeof AREAS)[]).map(newestWindow));
    const read = new Set(windows.flatMap((w) => [...w.keys]));
    for (const area of ['pricing', 'icp'] as const) {
      expect(windows[Object.keys(AREAS).indexOf(area)]!.matching).toBeGreaterThan(2 * EVIDENCE_WINDOW);
      const output = await assessArea(env.DB, org.id, COMPANY, area);
      expect(output.sources.length).toBeGreaterThan(0);
      for (const source of output.sources) expect(read).toContain(source.url);
      expect(output.details).toEqual([
        `- More than ${EVIDENCE_WINDOW} passages name Team and discuss ${area}: this area was assessed on the ${EVIDENCE_WINDOW} most recently imported, and its sources are those of the 80 most relevant among them.`,
      ]);
    }
  });
});
