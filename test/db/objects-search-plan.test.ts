import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { searchObjects, type ObjectSearch } from '../../src/db/objects.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { importLines } from '../oms/read-helpers.ts';

/** D1 as the search uses it, keeping the last statement's SQL and bound values. */
function capturingD1(): { db: D1Database; last: () => { sql: string; values: unknown[] } } {
  let last = { sql: '', values: [] as unknown[] };
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property !== 'prepare') return Reflect.get(target, property, target);
      return (sql: string) => {
        const statement = target.prepare(sql);
        return new Proxy(statement, {
          get(inner, name) {
            if (name === 'bind') return (...values: unknown[]) => ((last = { sql, values }), inner.bind(...values));
            const value = Reflect.get(inner, name, inner) as unknown;
            return typeof value === 'function' ? value.bind(inner) : value;
          },
        });
      };
    },
  });
  return { db, last: () => last };
}

async function planOf(search: ObjectSearch): Promise<string[]> {
  const { db, last } = capturingD1();
  await searchObjects(db, search);
  const { sql, values } = last();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...values).all<{ detail: string }>();
  return results.map((row) => row.detail);
}

const company = (i: number, name: string) => ({ type: 'company', key: `p${String(i).padStart(3, '0')}.example`, properties: { name, domain: `p${String(i).padStart(3, '0')}.example` } });

describe('search filtered on an indexed property', () => {
  it('reads the property index in key order: no walk of every object of the type, no sort', async () => {
    const org = await createOrganization();
    const base = { organizationId: org.id, type: 'company', orderBy: 'key', direction: 'asc' as const, limit: 11 };
    for (const search of [
      { ...base, filters: [{ property: 'name', op: 'eq' as const, value: 'Twin' }] },
      { ...base, filters: [{ property: 'name', op: 'eq' as const, value: 'Twin' }], after: ['p001.example', 'p001.example'] as [string, string] },
    ]) {
      const plan = (await planOf(search)).join(' | ');
      expect(plan).toMatch(/objects_by_name \(organization_id=\? AND type=\? AND <expr>=\?/);
      expect(plan).not.toContain('TEMP B-TREE');
    }
    // `in` reads one index range per value; only the matching objects are then put in key order.
    const plan = (await planOf({ ...base, direction: 'desc', filters: [{ property: 'domain', op: 'in', value: ['p001.example', 'p002.example'] }] })).join(' | ');
    expect(plan).toMatch(/objects_by_domain \(organization_id=\? AND type=\? AND <expr>=\?/);
  });

  it('pages objects sharing a name in key order, both ways, none missed or repeated', async () => {
    const org = await createOrganization();
    await importLines(org.key, [...Array.from({ length: 9 }, (_, i) => company(i, i % 3 === 0 ? 'Other' : 'Twin'))]);
    const twins = ['p001.example', 'p002.example', 'p004.example', 'p005.example', 'p007.example', 'p008.example'];
    for (const direction of ['asc', 'desc'] as const) {
      const seen: string[] = [];
      let after: [string, string] | undefined;
      for (;;) {
        const rows = await searchObjects(env.DB, {
          organizationId: org.id,
          type: 'company',
          filters: [{ property: 'name', op: 'eq', value: 'Twin' }],
          orderBy: 'key',
          direction,
          limit: 4,
          after,
        });
        seen.push(...rows.map((row) => row.object.key));
        if (rows.length < 4) break;
        const last = rows.at(-1)!;
        after = [last.sortValue, last.object.key];
      }
      expect(seen).toEqual(direction === 'asc' ? twins : [...twins].reverse());
    }
  });
});
