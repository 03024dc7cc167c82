import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { WatchView } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { createWatch, json, marketOrganization, stubOf, untilExecutions } from '../watches/helpers.ts';

type Page = { watches: WatchView[]; nextCursor: string | null };

async function allPages(key: string, query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Page = await json<Page>(await call(`/api/v1/oms/watches?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key }), 200);
    expect(page.watches.length).toBeLessThanOrEqual(limit);
    ids.push(...page.watches.map((w) => w.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { ids, pages };
}

describe('listing watches', () => {
  it('pages newest first with no watch missed or repeated, filters by status and target, and refuses a tampered or foreign cursor', { timeout: 60_000 }, async () => {
    const org = await marketOrganization();
    const created: WatchView[] = [];
    for (let i = 0; i < 7; i++) {
      const target = i % 2 === 0 ? 'globex.com' : 'acme.com';
      created.push(await createWatch(org.key, { target: { type: 'company', key: target }, frequency: '1d', tier: 'lite', costCapMicros: 3000 }));
    }
    for (const w of created) await untilExecutions(w.id, 1);
    await call(`/api/v1/oms/watches?id=${created[6]!.id}`, { key: org.key, method: 'DELETE' });
    // Settle everything that was capped or cancelled (their mirrors).
    for (const w of created) await runInDurableObject(stubOf(w.id), () => undefined);

    const newestFirst = [...created].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1)).map((w) => w.id);
    const { ids, pages } = await allPages(org.key, '', 3);
    expect(ids).toEqual(newestFirst);
    expect(pages).toBe(3);

    const globex = await allPages(org.key, 'targetType=company&targetKey=WWW.Globex.com', 2);
    expect(globex.ids).toEqual(newestFirst.filter((id) => created.find((w) => w.id === id)!.target.key === 'globex.com'));
    const cancelled = await json<Page>(await call('/api/v1/oms/watches?status=cancelled', { key: org.key }), 200);
    expect(cancelled.watches.map((w) => w.id)).toEqual([created[6]!.id]);
    const capped = await json<Page>(await call('/api/v1/oms/watches?status=capped', { key: org.key }), 200);
    expect(capped.watches).toHaveLength(6);
    expect(capped.watches.every((w) => w.spentMicros === 3000 && w.nextRunAt === null)).toBe(true);

    const first = await json<Page>(await call('/api/v1/oms/watches?limit=2', { key: org.key }), 200);
    const token = first.nextCursor!;
    const tampered = `${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}${token.slice(-1)}`;
    for (const cursor of [tampered, 'nonsense']) {
      const response = await call(`/api/v1/oms/watches?limit=2&cursor=${encodeURIComponent(cursor)}`, { key: org.key });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_input', details: [{ path: 'cursor' }] });
    }
    // The token of another list (a filter) or of another organization is refused.
    expect((await call(`/api/v1/oms/watches?status=active&cursor=${encodeURIComponent(token)}`, { key: org.key })).status).toBe(400);
    const other = await marketOrganization();
    expect((await call(`/api/v1/oms/watches?limit=2&cursor=${encodeURIComponent(token)}`, { key: other.key })).status).toBe(400);
  });

  it('checks its query parameters', async () => {
    const org = await marketOrganization();
    for (const [query, path] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['status=paused', 'status'],
      ['targetType=company', 'targetKey'],
      ['targetKey=globex.com', 'targetType'],
      ['targetType=person&targetKey=a@b.com', 'targetType'],
      ['color=red', 'color'],
      ['id=wch_x&status=active', 'status'],
    ]) {
      const response = await call(`/api/v1/oms/watches?${query}`, { key: org.key });
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { details: { path: string }[] }).details.map((d) => d.path), query).toContain(path);
    }
    expect((await json<Page>(await call('/api/v1/oms/watches?limit=200', { key: org.key }), 200)).watches).toEqual([]);
  });

  it('pages executions newest first', async () => {
    const org = await marketOrganization();
    const watch = await createWatch(org.key, { target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 15000 });
    await untilExecutions(watch.id, 1);
    for (let i = 0; i < 4; i++) await call(`/api/v1/oms/watches/run?id=${watch.id}`, { key: org.key, method: 'POST' });
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { executions: { id: string; startedAt: string }[]; nextCursor: string | null } = await json(
        await call(`/api/v1/oms/watches/executions?id=${watch.id}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: org.key }),
        200,
      );
      ids.push(...page.executions.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    const all = (await stubOf(watch.id).executionsPage(100)).executions;
    expect(ids).toEqual(all.map((e) => e.id));
    expect(ids).toHaveLength(5);
    expect([...all].sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1)).map((e) => e.id)).toEqual(ids);
  });
});
