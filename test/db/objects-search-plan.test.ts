import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { searchObjects, type ObjectSearch } from '../../src/db/objects.ts';
import { writeObjects } from '../../src/oms/store.ts';
import { createOrganization } from '../helpers/fixtures.ts';

/** D1 as the search uses it, keeping the SQL and bound values of every statement it binds. */
function capturingD1(): { db: D1Database; statements: { sql: string; values: unknown[] }[] } {
  const statements: { sql: string; values: unknown[] }[] = [];
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property !== 'prepare') {
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (sql: string) => {
        const statement = target.prepare(sql);
        return new Proxy(statement, {
          get(inner, name) {
            if (name === 'bind') return (...values: unknown[]) => (statements.push({ sql, values }), inner.bind(...values));
            const value = Reflect.get(inner, name, inner) as unknown;
            return typeof value === 'function' ? value.bind(inner) : value;
          },
        });
      };
    },
  });
  return { db, statements };
}

/** The query plan of the search's first statement (the page). */
async function planOf(search: ObjectSearch): Promise<string> {
  const { db, statements } = capturingD1();
  await searchObjects(db, search);
  const { sql, values } = statements[0]!;
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...values).all<{ detail: string }>();
  return results.map((row) => row.detail).join(' | ');
}

describe('search on an indexed property', () => {
  const base = (organizationId: string) => ({ organizationId, type: 'company', filters: [], orderBy: 'key', direction: 'asc' as const, limit: 11 });

  it('reads the property index from its position: no walk of the type, no sort', async () => {
    const org = await createOrganization();
    const b = base(org.id);
    for (const search of [
      { ...b, filters: [{ property: 'name', op: 'eq' as const, value: 'Twin' }] },
      { ...b, filters: [{ property: 'name', op: 'eq' as const, value: 'Twin' }], after: ['', 'p001.example'] as [string, string] },
      { ...b, orderBy: 'name', direction: 'desc' as const, after: ['M', 'x.example'] as [string, string] },
      { ...b, orderBy: 'name', filters: [{ property: 'name', op: 'gte' as const, value: 'K' }] },
      { ...b, orderBy: 'createdAt', direction: 'desc' as const, after: ['2026-01-01T00:00:00.000Z', 'x.example'] as [string, string] },
      { ...b, orderBy: 'updatedAt', after: ['2026-01-01T00:00:00.000Z', 'x.example'] as [string, string] },
      { ...b, type: 'source', orderBy: 'publishedAt', direction: 'desc' as const, filters: [{ property: 'publishedAt', op: 'gte' as const, value: '2026-05-01' }] },
    ]) {
      const plan = await planOf(search);
      expect(plan).toMatch(/USING (COVERING )?INDEX objects_by_(name|published|created|update) \(organization_id=\? AND type=\? AND /);
      expect(plan).not.toContain('TEMP B-TREE');
    }
    // `in` reads one index range per value; only the matching objects are then put in key order.
    const plan = await planOf({ ...b, direction: 'desc', filters: [{ property: 'domain', op: 'in', value: ['p001.example', 'p002.example'] }] });
    expect(plan).toMatch(/objects_by_domain \(organization_id=\? AND type=\? AND <expr>=\?/);
  });

  it('orders by name with ties and missing names, both ways, a page at a time, none missed or repeated', async () => {
    const org = await createOrganization();
    const names = ['Beta', undefined, 'alpha', 'Beta', 'Gamma', undefined, 'Beta', 'Delta', 'alpha'];
    const companies = names.map((name, i) => ({ type: 'company' as const, key: `n${i}.example`, properties: name ? { name } : { description: 'no name' } }));
    await writeObjects(env.DB, org.id, companies, [], { kind: 'import', id: 'test' });
    // SQLite's order of text (binary); a missing name is '' and comes first.
    const expected = companies.map((c) => [String(c.properties.name ?? ''), c.key] as const).sort(([a, k], [b, l]) => (a < b ? -1 : a > b ? 1 : k < l ? -1 : 1));
    for (const direction of ['asc', 'desc'] as const) {
      const seen: string[] = [];
      let after: [string | number, string] | undefined;
      for (;;) {
        const { rows, resumeAfter } = await searchObjects(env.DB, { ...base(org.id), orderBy: 'name', direction, limit: 3, after });
        expect(resumeAfter).toBeNull();
        seen.push(...rows.map((row) => row.object.key));
        if (rows.length < 3) break;
        after = [rows.at(-1)!.sortValue, rows.at(-1)!.object.key];
      }
      const keys = expected.map(([, key]) => key);
      expect(seen).toEqual(direction === 'asc' ? keys : keys.reverse());
    }
  });

  it('a range filter on an indexed property never matches objects without it', async () => {
    const org = await createOrganization();
    await writeObjects(env.DB, org.id, [
      { type: 'company', key: 'a.example', properties: { name: 'Acme' } },
      { type: 'company', key: 'b.example', properties: { description: 'nameless' } },
      { type: 'company', key: 'z.example', properties: { name: 'Zeta' } },
    ], [], { kind: 'import', id: 'test' });
    const keys = async (op: 'lt' | 'lte' | 'gt' | 'eq' | 'in', value: string | string[], orderBy = 'key') =>
      (await searchObjects(env.DB, { ...base(org.id), orderBy, filters: [{ property: 'name', op, value }] })).rows.map((r) => r.object.key);
    expect(await keys('lt', 'M')).toEqual(['a.example']);
    expect(await keys('lte', 'Zeta', 'name')).toEqual(['a.example', 'z.example']);
    expect(await keys('gt', 'B', 'name')).toEqual(['z.example']);
    expect(await keys('eq', '')).toEqual([]);
    expect(await keys('in', ['', 'Acme'])).toEqual(['a.example']);
  });
});
