import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../helpers/markdown-text.ts';
import { call, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';

/** The demo market's sources by URL: what a cited sentence must be verbatim in. */
const CONTENT = new Map(
  env.TEST_KNOWLEDGE_BASE.split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type?: string; key?: string; properties?: { content?: string } })
    .filter((line) => line.type === 'source')
    .map((line) => [line.key!, line.properties!.content!]),
);

let org: TestOrganization;
beforeAll(async () => {
  org = await createOrganization();
  const imported = await call('/api/v1/oms/objects/import', { key: org.key, method: 'POST', rawBody: env.TEST_KNOWLEDGE_BASE, headers: { 'Content-Type': 'application/x-ndjson' } });
  expect(imported.status).toBe(200);
});

/** Runs a gtm-audit of `company` to its end and returns the report. */
async function gtmAudit(company: string): Promise<string> {
  const start = await call('/api/v1/commands/gtm-audit', { key: org.key, body: { company } });
  expect(start.status).toBe(202);
  const id = start.headers.get('X-Run-Id')!;
  const stub = env.RUNS.get(env.RUNS.idFromString(id));
  for (let i = 0; i < 30 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
  const done = await call(`/api/v1/runs/gtm-audit/${id}`, { key: org.key });
  expect(done.headers.get('X-Run-Status')).toBe('completed');
  return done.text();
}

interface Area {
  score: string;
  met: { label: string; sentence: string; url: string }[];
  notFound: string[];
}

/** Each area's scorecard cell, and its rubric lines with the cited sentence and source URL. */
function areas(report: string): Map<string, Area> {
  const urls = new Map([...report.matchAll(/^\[(\d+)\] .*, (https?:\/\/\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const out = new Map<string, Area>();
  for (const row of report.matchAll(/^\| ([A-Z][\w ]+) \| ([^|]+) \| .* \|$/gm)) {
    if (row[1] === 'Area') continue;
    const section = report.split(`\n## ${row[1]}\n`)[1]!.split('\n## ')[0]!;
    out.set(row[1]!, {
      score: row[2]!,
      met: [...section.matchAll(/^- Met: (.+?)\. "(.+)" \[(\d+)\]$/gm)].map((m) => ({ label: m[1]!, sentence: plainText(m[2]!), url: urls.get(m[3]!)! })),
      notFound: [...section.matchAll(/^- Not found: (.+)\.$/gm)].map((m) => m[1]!),
    });
  }
  return out;
}

describe('gtm-audit judges content', () => {
  it('gives Acme and Globex different area scores, every point met cited with a sentence verbatim in its source, no sentence under two areas', async () => {
    const acme = areas(await gtmAudit('acme.com'));
    const globex = areas(await gtmAudit('globex.com'));
    for (const report of [acme, globex]) {
      expect([...report.keys()]).toEqual(['Positioning', 'Ideal customer profile', 'Pricing', 'Channels', 'Competition', 'Content']);
      for (const area of report.values()) {
        expect(area.score).toMatch(/^\d+\/100$/);
        const points = area.met.length + area.notFound.length;
        expect(area.score).toBe(`${Math.round((100 * area.met.length) / points)}/100`);
        for (const { sentence, url } of area.met) expect(CONTENT.get(url), url).toContain(sentence);
      }
      // A sentence may meet several points of one area, but is filed under that area only.
      const perArea = [...report.values()].map((area) => new Set(area.met.map((m) => m.sentence)));
      const all = perArea.flatMap((set) => [...set]);
      expect(new Set(all).size).toBe(all.length);
    }
    // Acme publishes a free plan; Globex only a trial. Globex's own pages state no outcome for the buyer.
    expect(acme.get('Pricing')!.met.map((m) => m.label)).toContain('A free plan or tier');
    expect(globex.get('Pricing')!.notFound).toContain('A free plan or tier');
    expect(acme.get('Pricing')!.score).not.toBe(globex.get('Pricing')!.score);
    expect(acme.get('Positioning')!.met.map((m) => m.label)).toContain('An outcome it delivers');
    expect(globex.get('Positioning')!.notFound).toContain('An outcome it delivers');
    // The evidence is about the audited company: Acme's page is never cited for Globex, nor the reverse.
    expect([...globex.values()].flatMap((a) => a.met).some((m) => m.url.startsWith('https://acme.com/'))).toBe(false);
    expect([...acme.values()].flatMap((a) => a.met).some((m) => m.url.startsWith('https://globex.com/'))).toBe(false);
  });
});
