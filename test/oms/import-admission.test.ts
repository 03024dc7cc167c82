import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

/** About 6 MiB of company lines: two of these are never in work at once for one organization. */
function largeImport(prefix: string): string {
  const line = (n: number) => `${JSON.stringify({ type: 'company', key: `${prefix}-${n}.example`, properties: { name: `${prefix} ${n}`, description: 'x'.repeat(2_400) } })}\n`;
  return Array.from({ length: 2_500 }, (_, n) => line(n)).join('');
}

function importNdjson(key: string, body: string): Promise<Response> {
  return call('/api/v1/oms/objects/import', { key, rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
}

describe("an organization's large imports in one isolate", () => {
  it('runs them one at a time: the next is 429 with Retry-After and writes nothing; another organization goes on; small ones run alongside', async () => {
    const busy = await createOrganization();
    const other = await createOrganization();
    const [first, second, third, elsewhere] = await Promise.all([
      importNdjson(busy.key, largeImport('a')),
      importNdjson(busy.key, largeImport('b')),
      importNdjson(busy.key, largeImport('c')),
      importNdjson(other.key, largeImport('d')),
    ]);
    const statuses = [first!.status, second!.status, third!.status];
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(elsewhere!.status).toBe(200);
    for (const [index, response] of [first, second, third].entries()) {
      if (response!.status !== 429) continue;
      expect(response!.headers.get('Retry-After')).toBe('1');
      expect(await response!.json()).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(/^Rate limited: retry in 1 s\. /) });
      const prefix = ['a', 'b', 'c'][index]!;
      for (const n of [0, 2_499]) {
        expect((await call('/api/v1/oms/objects/get', { key: busy.key, body: { type: 'company', key: `${prefix}-${n}.example` } })).status).toBe(404);
      }
    }
    // Once they are done, the organization imports again; small imports go beside a large one.
    const small = (prefix: string) => `${JSON.stringify({ type: 'company', key: `${prefix}.example`, properties: { name: prefix } })}\n`;
    const [large, smallOne, smallTwo] = await Promise.all([importNdjson(busy.key, largeImport('e')), importNdjson(busy.key, small('f')), importNdjson(busy.key, small('g'))]);
    expect([large!.status, smallOne!.status, smallTwo!.status]).toEqual([200, 200, 200]);
  });
});
