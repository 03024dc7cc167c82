import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SEARCH_WINDOW, searchObjects, type ObjectSearch } from '../../src/db/objects.ts';
import { writeObjects } from '../../src/oms/store.ts';
import { createOrganization } from '../helpers/fixtures.ts';

const COUNT = SEARCH_WINDOW * 2 + 300;
const key = (i: number) => `w${String(i).padStart(5, '0')}.example`;

/** Follows a search's positions to the end: the keys found and the number of pages it took. */
async function walk(search: Omit<ObjectSearch, 'after'>): Promise<{ keys: string[]; pages: number; sizes: number[] }> {
  const keys: string[] = [];
  const sizes: number[] = [];
  let after: ObjectSearch['after'];
  for (;;) {
    const { rows, resumeAfter } = await searchObjects(env.DB, { ...search, after });
    const page = rows.slice(0, search.limit - 1);
    keys.push(...page.map((row) => row.object.key));
    sizes.push(page.length);
    const last = page.at(-1);
    after = rows.length === search.limit && last ? [last.sortValue, last.object.key] : (resumeAfter ?? undefined);
    if (!after) return { keys, pages: sizes.length, sizes };
  }
}

describe('search conditions with no index', () => {
  it('examine at most SEARCH_WINDOW objects per page; following the positions finds every match once', async () => {
    const org = await createOrganization();
    const companies = Array.from({ length: COUNT }, (_, i) => ({
      type: 'company' as const,
      key: key(i),
      // "needle" is rare: one early object and the very last one; "common" is in every third.
      properties: { name: `Company ${i}`, description: `${i % 3 === 0 ? 'common ' : ''}${i === 5 || i === COUNT - 1 ? 'needle' : 'hay'}` },
    }));
    for (let i = 0; i < COUNT; i += 1000) await writeObjects(env.DB, org.id, companies.slice(i, i + 1000), [], { kind: 'import', id: 'test' });
    const base = { organizationId: org.id, type: 'company', filters: [], orderBy: 'key', direction: 'asc' as const, limit: 26 };

    const rare = await walk({ ...base, text: { kind: 'words', words: ['needle'], properties: ['name', 'description'] } });
    expect(rare.keys).toEqual([key(5), key(COUNT - 1)]);
    // Each page examined at most SEARCH_WINDOW objects: the walk needed one page per window.
    expect(rare.pages).toBe(Math.ceil(COUNT / SEARCH_WINDOW));
    expect(rare.sizes).toEqual([1, ...Array.from({ length: rare.pages - 2 }, () => 0), 1]);

    const common = await walk({ ...base, direction: 'desc', filters: [{ property: 'description', op: 'contains', value: 'COMMON' }] });
    const expected = companies.filter((_, i) => i % 3 === 0).map((c) => c.key).reverse();
    expect(common.keys).toEqual(expected);
    // Dense matches fill pages: no more pages than the matches need.
    expect(common.pages).toBe(Math.ceil(expected.length / 25));

    const none = await searchObjects(env.DB, { ...base, filters: [{ property: 'description', op: 'eq', value: 'nothing' }] });
    expect(none.rows).toEqual([]);
    expect(none.resumeAfter).toEqual([key(SEARCH_WINDOW - 1), key(SEARCH_WINDOW - 1)]);
  });
});
