import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_SHARED_BYTES, MAX_SHARED_PAGES } from '../../src/db/shared-page-store.ts';
import { KEEP_MS, LEASE_MS, type SiteHostGate } from '../../src/durable-objects/site-host-gate.ts';
import type { SitePage } from '../../src/sites/fetch-page.ts';
import { MAX_PUSHBACK_MS } from '../../src/sites/retry-after.ts';
import { MAX_SHARED_BODY_BYTES, sharedKey } from '../../src/sites/shared-page.ts';

/** A gate of its own for each test: SiteHostGate is addressed by a site's domain. */
const gate = () => env.SITE_GATES.get(env.SITE_GATES.idFromName(`${crypto.randomUUID()}.example`));

describe('SiteHostGate', () => {
  it('hands out request starts at least the gap apart, and at most maxInFlight at once', async () => {
    const site = gate();
    const first = await site.acquire(1_000, 2);
    const second = await site.acquire(1_000, 2);
    expect(first).toMatchObject({ waitMs: 0 });
    // The second start is one gap after the first (less the time between the two calls).
    expect(second.lease).not.toBeNull();
    if (second.lease === null) return;
    expect(second.waitMs).toBeGreaterThan(900);
    expect(second.waitMs).toBeLessThanOrEqual(1_000);
    const third = await site.acquire(1_000, 2);
    expect(third).toMatchObject({ lease: null });
    if (third.lease !== null) return;
    expect(third.retryInMs).toBeGreaterThan(0);
  });

  it('frees a slot when it is released, and the next start still keeps the gap', async () => {
    const site = gate();
    const first = await site.acquire(5_000, 1);
    expect(first.lease).not.toBeNull();
    expect(await site.acquire(5_000, 1)).toMatchObject({ lease: null });
    await site.release(first.lease!);
    const next = await site.acquire(5_000, 1);
    expect(next.lease).not.toBeNull();
    if (next.lease === null) return;
    expect(next.waitMs).toBeGreaterThan(4_000);
  });

  it('keeps one gap per site, whoever asks: two reads of one site share it', async () => {
    const domain = `${crypto.randomUUID()}.example`;
    const a = env.SITE_GATES.get(env.SITE_GATES.idFromName(domain));
    const b = env.SITE_GATES.get(env.SITE_GATES.idFromName(domain));
    await a.acquire(2_000, 2);
    const other = await b.acquire(2_000, 2);
    expect(other.lease !== null && other.waitMs > 1_500).toBe(true);
  });

  it('frees a slot never released once its lease expires (LEASE_MS, longer than the 10 s page deadline)', async () => {
    const site = gate();
    const now = Date.now();
    expect((await site.acquire(0, 1, now)).lease).not.toBeNull();
    expect(await site.acquire(0, 1, now + LEASE_MS - 1)).toMatchObject({ lease: null });
    expect((await site.acquire(0, 1, now + LEASE_MS)).lease).not.toBeNull();
    expect(LEASE_MS).toBeGreaterThan(10_000);
  });
});

describe('SiteHostGate pause (a site pushing back)', () => {
  it('starts no request before the pause ends, for any reader of the site, and keeps a longer pause', async () => {
    const domain = `${crypto.randomUUID()}.example`;
    const orgA = env.SITE_GATES.get(env.SITE_GATES.idFromName(domain));
    const orgB = env.SITE_GATES.get(env.SITE_GATES.idFromName(domain));
    const now = Date.now();
    expect(await orgA.pause(now + 60_000, now)).toBe(now + 60_000);
    // A shorter pause asked later does not shorten it.
    expect(await orgA.pause(now + 5_000, now)).toBe(now + 60_000);
    for (const reader of [orgA, orgB]) {
      expect(await reader.acquire(0, 2, now + 1_000)).toEqual({ lease: null, retryInMs: 59_000, pausedUntil: now + 60_000 });
    }
    expect(await orgB.pausedUntil(now)).toBe(now + 60_000);
    expect((await orgB.acquire(0, 2, now + 60_000)).lease).not.toBeNull();
    expect(await orgB.pausedUntil(now + 60_000)).toBeUndefined();
  });

  it('pauses at most MAX_PUSHBACK_MS, whatever a reader asks', async () => {
    const site = gate();
    const now = Date.now();
    expect(await site.pause(now + 86_400_000, now)).toBe(now + MAX_PUSHBACK_MS);
  });

  it('keeps the pause through a restart of the object (leases, in memory, are forgotten)', async () => {
    const domain = `${crypto.randomUUID()}.example`;
    const stub = () => env.SITE_GATES.get(env.SITE_GATES.idFromName(domain));
    const now = Date.now();
    expect((await stub().acquire(0, 1, now)).lease).not.toBeNull();
    await stub().pause(now + 30_000, now);
    await abortAllDurableObjects();
    // A new instance: the lease it handed out is forgotten, the pause is not.
    expect(await stub().acquire(0, 1, now + 1_000)).toEqual({ lease: null, retryInMs: 29_000, pausedUntil: now + 30_000 });
    expect((await stub().acquire(0, 1, now + 30_000)).lease).not.toBeNull();
  });
});

const digest = async (bytes: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].join(',');

const html = (text: string) => new TextEncoder().encode(`<!doctype html><title>${text}</title><p>${text}</p>`);

function pageOf(url: string, text: string, etag: string): SitePage {
  const body = html(text);
  return { kind: 'page', url, body, contentType: 'text/html; charset=utf-8', etag, lastModified: 'Fri, 27 Nov 2026 10:00:00 GMT', bytes: body.byteLength };
}

describe('SiteHostGate shared copy', () => {
  const FRESH = 60_000;

  it('hands the first reader a fetch, holds a second asking meanwhile, and answers both with one fetch', async () => {
    const site = gate();
    const url = 'https://acme.example/pricing';
    const request = { key: sharedKey(url, {}), url, freshMs: FRESH };
    const now = Date.now();
    const first = await site.lookup(request, now);
    expect(first).toMatchObject({ kind: 'fetch' });
    if (first.kind !== 'fetch') return;
    expect(first.conditional).toBeUndefined();
    // Sent before the settle on the same stub, so it arrives first and waits on the fetch under way.
    const second = site.lookup(request, now);
    const mine = await site.settle(first.ticket, request, pageOf(url, 'v1', '"v1"'), now);
    expect(mine).toMatchObject({ kind: 'page', etag: '"v1"' });
    const waited = await second;
    expect(waited.kind).toBe('answer');
    if (waited.kind !== 'answer' || waited.page.kind !== 'page') throw new Error('expected the page');
    expect(new TextDecoder().decode(waited.page.body)).toContain('v1');
  });

  it('answers from a fresh copy, not-modified to a reader whose validators name it, and revalidates with its own validators once stale', async () => {
    const site = gate();
    const url = 'https://acme.example/about';
    const request = { key: sharedKey(url, {}), url, freshMs: FRESH };
    const now = Date.now();
    const fetch = await site.lookup(request, now);
    if (fetch.kind !== 'fetch') throw new Error('expected a fetch');
    await site.settle(fetch.ticket, request, pageOf(url, 'about', '"a1"'), now);

    expect(await site.lookup(request, now + FRESH - 1)).toMatchObject({ kind: 'answer', page: { kind: 'page', url, etag: '"a1"' } });
    expect(await site.lookup({ ...request, caller: { etag: '"a1"' } }, now + 1)).toEqual({ kind: 'answer', page: { kind: 'not-modified', url } });
    expect(await site.lookup({ ...request, caller: { etag: '"other"' } }, now + 1)).toMatchObject({ kind: 'answer', page: { kind: 'page' } });

    // Stale: the reader fetches, with the copy's validators (a caller's own are never handed out).
    const stale = await site.lookup({ ...request, caller: { etag: '"org-own"' } }, now + FRESH);
    expect(stale).toMatchObject({ kind: 'fetch', conditional: { etag: '"a1"', lastModified: 'Fri, 27 Nov 2026 10:00:00 GMT' } });
    if (stale.kind !== 'fetch') return;
    // The site confirms the copy: the reader gets the page from it, and the copy is fresh again.
    const confirmed = await site.settle(stale.ticket, request, { kind: 'not-modified', url }, now + FRESH);
    expect(confirmed).toMatchObject({ kind: 'page', etag: '"a1"' });
    expect(await site.lookup(request, now + 2 * FRESH - 1)).toMatchObject({ kind: 'answer' });
  });

  it('never keeps a failure: the readers waiting get it, the next reader asks the site again', async () => {
    const site = gate();
    const url = 'https://acme.example/busy';
    const request = { key: sharedKey(url, {}), url, freshMs: FRESH };
    const now = Date.now();
    const fetch = await site.lookup(request, now);
    if (fetch.kind !== 'fetch') throw new Error('expected a fetch');
    const waiting = site.lookup(request, now);
    const failed: SitePage = { kind: 'failed', url, reason: 'HTTP 503', status: 503, retryAfter: '5' };
    expect(await site.settle(fetch.ticket, request, failed, now)).toEqual(failed);
    expect(await waiting).toEqual({ kind: 'answer', page: failed });
    expect(await site.lookup(request, now + 1)).toMatchObject({ kind: 'fetch' });
  });

  it('keeps a gone page, and nothing a reader skipped', async () => {
    const site = gate();
    const now = Date.now();
    for (const [path, answer, kept] of [
      ['/old', { kind: 'gone', url: 'https://acme.example/old', status: 410 }, true],
      ['/brochure', { kind: 'skipped', url: 'https://acme.example/brochure', reason: 'not HTML' }, false],
    ] as const) {
      const url = `https://acme.example${path}`;
      const request = { key: sharedKey(url, {}), url, freshMs: FRESH };
      const fetch = await site.lookup(request, now);
      if (fetch.kind !== 'fetch') throw new Error('expected a fetch');
      await site.settle(fetch.ticket, request, answer, now);
      expect((await site.lookup(request, now + 1)).kind).toBe(kept ? 'answer' : 'fetch');
    }
    expect(await site.lookup({ key: sharedKey('https://acme.example/old', {}), url: 'https://acme.example/old', freshMs: FRESH }, now + 1)).toEqual({
      kind: 'answer',
      page: { kind: 'gone', url: 'https://acme.example/old', status: 410 },
    });
  });

  it('keeps a body over the 2 MB a SQLite row holds, in pieces', async () => {
    const site = gate();
    const url = 'https://acme.example/sitemap.xml';
    const request = { key: sharedKey(url, { file: { maxBytes: 10 * 1024 * 1024 } }), url, freshMs: FRESH };
    const body = new Uint8Array(3 * 1024 * 1024 + 17);
    for (let i = 0; i < body.length; i += 4096) body[i] = (i / 4096) % 251;
    const now = Date.now();
    const fetch = await site.lookup(request, now);
    if (fetch.kind !== 'fetch') throw new Error('expected a fetch');
    await site.settle(fetch.ticket, request, { kind: 'page', url, body, contentType: 'application/xml', bytes: body.byteLength }, now);
    const again = await site.lookup(request, now + 1);
    if (again.kind !== 'answer' || again.page.kind !== 'page') throw new Error('expected the copy');
    expect(again.page.bytes).toBe(body.byteLength);
    expect(await digest(again.page.body)).toBe(await digest(body));
    // The same URL asked as a page is another request.
    expect((await site.lookup({ ...request, key: sharedKey(url, {}) }, now + 1)).kind).toBe('fetch');
  });

  it('replaces a kept copy whether its body was kept whole or in pieces, and counts what it keeps', async () => {
    const site = gate();
    const url = 'https://acme.example/price-sheet';
    const request = { key: sharedKey(url, { file: { maxBytes: 10 * 1024 * 1024 } }), url, freshMs: 0 };
    const big = new Uint8Array(2 * 1024 * 1024 + 5).fill(7);
    const small = html('v3');
    const start = Date.now();
    const versions = [html('v1'), big, small];
    for (const [i, body] of versions.entries()) {
      const fetch = await site.lookup(request, start + i);
      if (fetch.kind !== 'fetch') throw new Error('expected a fetch (freshness 0)');
      await site.settle(fetch.ticket, request, { kind: 'page', url, body, contentType: 'application/pdf', etag: `"v${i + 1}"`, bytes: body.byteLength }, start + i);
      expect(await site.sharedSize()).toEqual({ pages: 1, bytes: body.byteLength });
      const kept = await site.lookup({ ...request, freshMs: FRESH }, start + i);
      if (kept.kind !== 'answer' || kept.page.kind !== 'page') throw new Error('expected the copy');
      expect(await digest(kept.page.body)).toBe(await digest(body));
    }
    // Nothing of the body kept in pieces is left behind.
    const pieces = await runInDurableObject(site, (_instance, state) => state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM shared_page_chunks').one().n);
    expect(pieces).toBe(0);
  });

  it('adds the inline body column to a gate made before it, keeping its copies in pieces readable', async () => {
    const id = env.SITE_GATES.newUniqueId();
    const url = 'https://acme.example/old';
    const key = sharedKey(url, {});
    const body = html('kept before');
    // A gate object's storage as the earlier version left it; the object is made afresh after it.
    await runInDurableObject(env.SITE_GATES.get(id), (_instance, state) => {
      state.storage.sql.exec('DROP TABLE shared_pages');
      state.storage.sql.exec(`CREATE TABLE shared_pages (key TEXT PRIMARY KEY, url TEXT NOT NULL, kind TEXT NOT NULL, status INTEGER NOT NULL,
        content_type TEXT, robots_tag TEXT, etag TEXT, last_modified TEXT, bytes INTEGER NOT NULL, fetched_at INTEGER NOT NULL, made_by TEXT)`);
      state.storage.sql.exec(`INSERT INTO shared_pages VALUES (?, ?, 'page', 200, 'text/html', NULL, '"old"', NULL, ?, ?, NULL)`, key, url, body.byteLength, Date.now());
      state.storage.sql.exec('INSERT INTO shared_page_chunks (key, seq, data) VALUES (?, 0, ?)', key, body);
    });
    await abortAllDurableObjects();
    const site = env.SITE_GATES.get(id);
    const found = await site.lookup({ key, url, freshMs: FRESH }, Date.now());
    if (found.kind !== 'answer' || found.page.kind !== 'page') throw new Error('expected the old copy');
    expect(new TextDecoder().decode(found.page.body)).toContain('kept before');
  });

  it(`keeps at most ${MAX_SHARED_PAGES} pages per site, the ones fetched longest ago evicted first`, async () => {
    const site = gate();
    const start = Date.now();
    await runInDurableObject(site, async (instance: SiteHostGate) => {
      for (let i = 0; i <= MAX_SHARED_PAGES; i++) {
        const url = `https://acme.example/p/${i}`;
        const request = { key: sharedKey(url, {}), url, freshMs: FRESH };
        const fetch = await instance.lookup(request, start + i);
        if (fetch.kind !== 'fetch') throw new Error('expected a fetch');
        await instance.settle(fetch.ticket, request, pageOf(url, `p${i}`, `"${i}"`), start + i);
      }
    });
    expect((await site.sharedSize()).pages).toBe(MAX_SHARED_PAGES);
    const first = 'https://acme.example/p/0';
    const last = `https://acme.example/p/${MAX_SHARED_PAGES}`;
    expect((await site.lookup({ key: sharedKey(first, {}), url: first, freshMs: FRESH }, start + 1_000)).kind).toBe('fetch');
    expect((await site.lookup({ key: sharedKey(last, {}), url: last, freshMs: FRESH }, start + 1_000)).kind).toBe('answer');
    expect(MAX_SHARED_BYTES).toBeGreaterThanOrEqual(MAX_SHARED_BODY_BYTES);
    await site.forgetCopies();
    expect(await site.sharedSize()).toEqual({ pages: 0, bytes: 0 });
  });

  it(`deletes copies the site has not answered for in ${KEEP_MS / 86_400_000} days (the alarm)`, async () => {
    const site = gate();
    const url = 'https://acme.example/ancient';
    const request = { key: sharedKey(url, {}), url, freshMs: FRESH };
    const recent = `${url}-recent`;
    const now = Date.now();
    // Fetched (by a reader's clock) longer ago than KEEP_MS, and a minute ago; the alarm is armed a KEEP_MS ahead.
    for (const [page, at] of [[url, now - KEEP_MS - 1_000], [recent, now - 60_000]] as const) {
      const ask = { ...request, key: sharedKey(page, {}), url: page };
      const fetch = await site.lookup(ask, at);
      if (fetch.kind !== 'fetch') throw new Error('expected a fetch');
      await site.settle(fetch.ticket, ask, pageOf(page, 'old', '"old"'), at);
    }
    expect((await site.sharedSize()).pages).toBe(2);
    expect(await runDurableObjectAlarm(site)).toBe(true);
    expect((await site.sharedSize()).pages).toBe(1);
    expect(await site.lookup({ ...request, key: sharedKey(recent, {}), url: recent }, now - 60_000 + 1)).toMatchObject({ kind: 'answer' });
    // Armed again for the copy left.
    expect(await runInDurableObject(site, (_instance, state) => state.storage.getAlarm())).toBe(now - 60_000 + KEEP_MS);
  });
});
