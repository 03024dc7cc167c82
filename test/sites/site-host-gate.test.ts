import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_SHARED_BYTES, MAX_SHARED_PAGES } from '../../src/db/shared-page-store.ts';
import { KEEP_MS, LEASE_MS, type GatePageOptions, type PageReply, type PageRequest, type SiteHostGate } from '../../src/sites/site-host-gate.ts';
import { MAX_PUSHBACK_MS } from '../../src/sites/politeness.ts';
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

const html = (text: string) => `<!doctype html><title>${text}</title><p>${text}</p>`;

/** The site the shared-copy tests read: its host is served by a fake fetch (the gate is called in its own object). */
const DOMAIN = 'acme.example';
const url = (path: string) => `https://${DOMAIN}${path}`;

/** One request the fake site received. */
interface Received {
  path: string;
  ifNoneMatch?: string;
  userAgent?: string;
}

/**
 * A site the tests set page by page: `fetch` answers each path with the answer set for it (made
 * afresh for each request; none: 599), and `received` lists the requests in order. An answer may
 * wait on a promise the test resolves, to hold a fetch under way.
 */
function fakeSite() {
  const answers = new Map<string, () => Response | Promise<Response>>();
  const received: Received[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    received.push({ path: target.pathname, ...(headers.has('if-none-match') ? { ifNoneMatch: headers.get('if-none-match')! } : {}), userAgent: headers.get('user-agent') ?? undefined });
    const answer = answers.get(target.pathname);
    return answer ? answer() : new Response('no page', { status: 599 });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    received,
    set: (path: string, answer: () => Response | Promise<Response>) => answers.set(path, answer),
    requestsOf: (path: string) => received.filter((request) => request.path === path),
  };
}

const page = (text: string, etag: string, headers: Record<string, string> = {}) => () =>
  new Response(html(text), { headers: { 'content-type': 'text/html; charset=utf-8', etag, 'last-modified': 'Fri, 27 Nov 2026 10:00:00 GMT', ...headers } });

/** A promise the test resolves: a fetch held under way until then. */
function held<T>() {
  let release: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

const FRESH = 60_000;

/** A reader's request of `path` (a page, freshness FRESH, no gap, 2 in flight), with `extra` and the page options `options`. */
function ask(path: string, extra: Partial<PageRequest> = {}, options: Partial<GatePageOptions> = {}): PageRequest {
  return {
    url: url(path),
    // The host is served from an origin no request reaches: the fake fetch answers.
    page: { domain: DOMAIN, userAgent: 'ReconBot/test (+https://recon.example/bot)', originOverrides: new Map([[DOMAIN, 'http://127.0.0.1:9']]), ...options },
    freshMs: FRESH,
    turn: { gapMs: 0, maxInFlight: 2 },
    ...extra,
  };
}

/** Runs `test` in a gate of its own (called in its object: the fake site's fetch crosses no boundary). */
const inGate = <T>(test: (gate: SiteHostGate) => Promise<T>, stub = gate()) => runInDurableObject(stub, (instance: SiteHostGate) => test(instance));

const bodyOf = (reply: PageReply) => (reply.kind === 'page' && reply.page.kind === 'page' ? new TextDecoder().decode(reply.page.body) : undefined);

describe('SiteHostGate requests', () => {
  it('requests the page in the site’s turn with the reader’s user agent and answers it, one round trip', async () => {
    const site = fakeSite();
    site.set('/pricing', page('pricing', '"p1"'));
    const reply = await inGate((gate) => gate.request(ask('/pricing'), { fetch: site.fetch }));
    expect(reply).toMatchObject({ kind: 'page', shared: false, page: { kind: 'page', url: url('/pricing'), etag: '"p1"' } });
    expect(site.received).toEqual([{ path: '/pricing', userAgent: 'ReconBot/test (+https://recon.example/bot)' }]);
  });

  it('starts a request no sooner than the gap after the previous answer, and at most maxInFlight at once', async () => {
    const site = fakeSite();
    const started: Record<string, number> = {};
    const first = held<void>();
    for (const path of ['/a', '/b', '/c']) {
      site.set(path, async () => {
        started[path] = Date.now();
        if (path === '/a') await first.promise;
        return page(path, `"${path}"`)();
      });
    }
    await inGate(async (gate) => {
      const one = { turn: { gapMs: 0, maxInFlight: 1 } };
      const a = gate.request(ask('/a', one), { fetch: site.fetch });
      const b = gate.request(ask('/b', one), { fetch: site.fetch });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // /a holds the one slot: /b waits in the gate, unrequested, until /a's answer is in.
      expect(site.received.map((request) => request.path)).toEqual(['/a']);
      first.release();
      expect(bodyOf(await a)).toContain('/a');
      expect(bodyOf(await b)).toContain('/b');
      const gap = { turn: { gapMs: 500, maxInFlight: 2 } };
      const answeredAt = Date.now();
      await gate.request(ask('/c', gap), { fetch: site.fetch });
      expect(started['/c']! - answeredAt).toBeGreaterThanOrEqual(450);
    });
  });

  it('waits for a turn taken from outside (a browser render) and never given back no longer than LEASE_MS', async () => {
    const stub = gate();
    const site = fakeSite();
    site.set('/after', page('after', '"a"'));
    const now = Date.now();
    // A read that died while rendering: its turn is never released.
    expect((await stub.acquire(0, 1, now)).lease).not.toBeNull();
    const one = { turn: { gapMs: 0, maxInFlight: 1 } };
    expect(await inGate((gate) => gate.request(ask('/after', one), { fetch: site.fetch }, now + LEASE_MS), stub)).toMatchObject({ kind: 'page', page: { kind: 'page' } });
    expect(site.received).toHaveLength(1);
  });

  it('pauses the site on a 429 for its Retry-After, for every reader, and answers paused without requesting until then', async () => {
    const stub = gate();
    const site = fakeSite();
    site.set('/busy', () => new Response('slow down', { status: 429, headers: { 'retry-after': '30' } }));
    site.set('/other', page('other', '"o"'));
    const now = Date.now();
    const refused = await inGate((gate) => gate.request(ask('/busy'), { fetch: site.fetch }, now), stub);
    expect(refused).toMatchObject({ kind: 'page', shared: false, page: { kind: 'failed', status: 429, retryAfter: '30' }, pause: { retryAfterMs: 30_000, until: now + 30_000 } });
    expect(await stub.pausedUntil(now)).toBe(now + 30_000);
    expect(await inGate((gate) => gate.request(ask('/other', { reader: 'org-b' }), { fetch: site.fetch }, now + 1_000), stub)).toEqual({ kind: 'paused', retryInMs: 29_000, pausedUntil: now + 30_000 });
    expect(site.requestsOf('/other')).toHaveLength(0);
    expect(await inGate((gate) => gate.request(ask('/other'), { fetch: site.fetch }, now + 30_000), stub)).toMatchObject({ kind: 'page', page: { kind: 'page' } });
  });

  it('asks the reader’s hooks before following a redirect, and keeps nothing that depended on them', async () => {
    const site = fakeSite();
    site.set('/old', () => new Response(null, { status: 301, headers: { location: `https://${DOMAIN}/new` } }));
    site.set('/new', page('new', '"n"'));
    const asked: string[] = [];
    const hooks = (allowed: boolean | 'unknown', claimed: boolean) => ({
      fetch: site.fetch,
      // As a read's robots.txt and frontier answer from another object: later.
      allows: async (target: string) => (asked.push(`allows ${target}`), allowed),
      claim: async (target: string) => (asked.push(`claim ${target}`), claimed),
    });
    await inGate(async (gate) => {
      expect(await gate.request(ask('/old'), hooks(true, false))).toMatchObject({ page: { kind: 'skipped', reason: expect.stringContaining('which this read requests anyway') } });
      expect(await gate.request(ask('/old'), hooks('unknown', true))).toMatchObject({ page: { kind: 'redirect', location: url('/new'), redirects: 1 } });
      expect(await gate.request(ask('/old'), hooks(false, true))).toMatchObject({ page: { kind: 'skipped', reason: expect.stringContaining('disallowed by robots.txt') } });
      const followed = await gate.request(ask('/old'), hooks(true, true));
      expect(followed).toMatchObject({ shared: false, page: { kind: 'page', url: url('/new') } });
      // Kept under what was asked: another reader asking for /old is answered from the copy.
      expect(await gate.request(ask('/old', { reader: 'org-b' }), { fetch: site.fetch })).toMatchObject({ shared: true, page: { kind: 'page', url: url('/new') } });
    });
    expect(asked).toEqual([`allows ${url('/new')}`, `claim ${url('/new')}`, `allows ${url('/new')}`, `allows ${url('/new')}`, `allows ${url('/new')}`, `claim ${url('/new')}`]);
    expect(site.requestsOf('/old')).toHaveLength(4);
  });
});

describe('SiteHostGate shared copy', () => {
  it('fetches once for two readers asking at once: the second waits on the first’s fetch and gets its page', async () => {
    const site = fakeSite();
    const hold = held<void>();
    site.set('/pricing', async () => {
      await hold.promise;
      return page('v1', '"v1"')();
    });
    const [mine, waited] = await inGate(async (gate) => {
      const first = gate.request(ask('/pricing', { reader: 'org-a' }), { fetch: site.fetch });
      const second = gate.request(ask('/pricing', { reader: 'org-b' }), { fetch: site.fetch });
      await new Promise((resolve) => setTimeout(resolve, 100));
      hold.release();
      return Promise.all([first, second]);
    });
    expect(mine).toMatchObject({ kind: 'page', shared: false, page: { kind: 'page', etag: '"v1"' } });
    expect(waited).toMatchObject({ kind: 'page', shared: true });
    expect(bodyOf(waited)).toContain('v1');
    expect(site.received).toHaveLength(1);
  });

  it('answers from a fresh copy, not-modified to a reader whose validators name it, and revalidates with its own validators once stale', async () => {
    const site = fakeSite();
    site.set('/about', page('about', '"a1"'));
    const hooks = { fetch: site.fetch };
    const now = Date.now();
    await inGate(async (gate) => {
      await gate.request(ask('/about'), hooks, now);
      expect(await gate.request(ask('/about'), hooks, now + FRESH - 1)).toMatchObject({ kind: 'page', shared: true, page: { kind: 'page', url: url('/about'), etag: '"a1"' } });
      expect(await gate.request(ask('/about', { caller: { etag: '"a1"' } }), hooks, now + 1)).toEqual({ kind: 'page', shared: true, page: { kind: 'not-modified', url: url('/about') } });
      expect(await gate.request(ask('/about', { caller: { etag: '"other"' } }), hooks, now + 1)).toMatchObject({ kind: 'page', shared: true, page: { kind: 'page' } });
      expect(site.received).toHaveLength(1);

      // Stale: asked again with the copy's validators (a caller's own are never sent); the site confirms the copy.
      site.set('/about', () => new Response(null, { status: 304 }));
      const confirmed = await gate.request(ask('/about', { caller: { etag: '"org-own"' } }), hooks, now + FRESH);
      expect(confirmed).toMatchObject({ kind: 'page', shared: false, page: { kind: 'page', etag: '"a1"' } });
      expect(site.received[1]).toMatchObject({ path: '/about', ifNoneMatch: '"a1"' });
      // The copy is fresh again.
      expect(await gate.request(ask('/about'), hooks, now + 2 * FRESH - 1)).toMatchObject({ shared: true });
    });
    expect(site.received).toHaveLength(2);
  });

  it('asks again, without validators, when a 304 confirms a copy that was dropped meanwhile', async () => {
    const site = fakeSite();
    site.set('/plans', page('plans', '"p1"'));
    const hold = held<void>();
    await inGate(async (gate) => {
      await gate.request(ask('/plans'), { fetch: site.fetch });
      site.set('/plans', async () => {
        await hold.promise;
        site.set('/plans', page('plans again', '"p2"'));
        return new Response(null, { status: 304 });
      });
      const stale = gate.request(ask('/plans', { freshMs: 0 }), { fetch: site.fetch });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await gate.forgetCopies();
      hold.release();
      const answer = await stale;
      expect(answer).toMatchObject({ shared: false, page: { kind: 'page', etag: '"p2"' } });
    });
    expect(site.received.map((request) => request.ifNoneMatch)).toEqual([undefined, '"p1"', undefined]);
  });

  it('never answers a reader from a copy its own organization made: it revalidates', async () => {
    const site = fakeSite();
    site.set('/team', page('team', '"t1"'));
    const hooks = { fetch: site.fetch };
    await inGate(async (gate) => {
      await gate.request(ask('/team', { reader: 'org-a' }), hooks);
      expect(await gate.request(ask('/team', { reader: 'org-b' }), hooks)).toMatchObject({ shared: true });
      site.set('/team', () => new Response(null, { status: 304 }));
      expect(await gate.request(ask('/team', { reader: 'org-a' }), hooks)).toMatchObject({ shared: false, page: { kind: 'page', etag: '"t1"' } });
    });
    expect(site.received.map((request) => request.ifNoneMatch)).toEqual([undefined, '"t1"']);
  });

  it('never keeps a failure: the readers waiting get it (with the site’s pause), the next reader asks the site again', async () => {
    const site = fakeSite();
    const hold = held<void>();
    site.set('/broken', async () => {
      await hold.promise;
      return new Response('oops', { status: 500 });
    });
    site.set('/busy', async () => {
      await hold.promise;
      return new Response('busy', { status: 503, headers: { 'retry-after': '5' } });
    });
    const now = Date.now();
    await inGate(async (gate) => {
      const broken = [gate.request(ask('/broken'), { fetch: site.fetch }, now), gate.request(ask('/broken'), { fetch: site.fetch }, now)];
      const busy = [gate.request(ask('/busy'), { fetch: site.fetch }, now), gate.request(ask('/busy'), { fetch: site.fetch }, now)];
      await new Promise((resolve) => setTimeout(resolve, 100));
      hold.release();
      const [fetched, waited] = await Promise.all(broken);
      expect(fetched).toMatchObject({ shared: false, page: { kind: 'failed', status: 500 } });
      expect(waited).toMatchObject({ shared: true, page: { kind: 'failed', status: 500 } });
      expect(waited).not.toHaveProperty('pause');
      const [refused, told] = await Promise.all(busy);
      expect(refused).toMatchObject({ shared: false, page: { kind: 'failed', status: 503 }, pause: { retryAfterMs: 5_000, until: now + 5_000 } });
      expect(told).toMatchObject({ shared: true, page: { kind: 'failed', status: 503 }, pause: { retryAfterMs: 5_000, until: now + 5_000 } });
      expect(await gate.request(ask('/broken'), { fetch: site.fetch }, now + 5_000)).toMatchObject({ shared: false, page: { kind: 'failed', status: 500 } });
    });
    expect(site.requestsOf('/broken')).toHaveLength(2);
    expect(site.requestsOf('/busy')).toHaveLength(1);
  });

  it('keeps a gone page, and nothing a reader skipped', async () => {
    const site = fakeSite();
    site.set('/old', () => new Response('', { status: 410 }));
    site.set('/brochure', () => new Response('%PDF', { headers: { 'content-type': 'application/octet-stream' } }));
    const hooks = { fetch: site.fetch };
    await inGate(async (gate) => {
      expect(await gate.request(ask('/old'), hooks)).toEqual({ kind: 'page', shared: false, page: { kind: 'gone', url: url('/old'), status: 410 } });
      expect(await gate.request(ask('/old'), hooks)).toEqual({ kind: 'page', shared: true, page: { kind: 'gone', url: url('/old'), status: 410 } });
      expect(await gate.request(ask('/brochure'), hooks)).toMatchObject({ shared: false, page: { kind: 'skipped' } });
      expect(await gate.request(ask('/brochure'), hooks)).toMatchObject({ shared: false, page: { kind: 'skipped' } });
    });
    expect(site.received.map((request) => request.path)).toEqual(['/old', '/brochure', '/brochure']);
  });

  it('keeps a body over the 2 MB a SQLite row holds, in pieces', async () => {
    const site = fakeSite();
    const body = new Uint8Array(3 * 1024 * 1024 + 17);
    for (let i = 0; i < body.length; i += 4096) body[i] = (i / 4096) % 251;
    site.set('/catalog', () => new Response(body, { headers: { 'content-type': 'application/xml' } }));
    const asFile = { file: { maxBytes: 10 * 1024 * 1024 } };
    const hooks = { fetch: site.fetch };
    await inGate(async (gate) => {
      await gate.request(ask('/catalog', {}, asFile), hooks);
      const again = await gate.request(ask('/catalog', {}, asFile), hooks);
      if (again.kind !== 'page' || again.page.kind !== 'page' || !again.shared) throw new Error('expected the copy');
      expect(again.page.bytes).toBe(body.byteLength);
      expect(await digest(again.page.body)).toBe(await digest(body));
      // The same URL asked as a page is another request.
      expect(await gate.request(ask('/catalog'), hooks)).toMatchObject({ shared: false });
    });
    expect(site.received).toHaveLength(2);
  });

  it('replaces a kept copy whether its body was kept whole or in pieces, and counts what it keeps', async () => {
    const stub = gate();
    const site = fakeSite();
    const big = new Uint8Array(2 * 1024 * 1024 + 5).fill(7);
    const versions = [new TextEncoder().encode(html('v1')), big, new TextEncoder().encode(html('v3'))];
    const asFile = { file: { maxBytes: 10 * 1024 * 1024 } };
    const start = Date.now();
    for (const [i, body] of versions.entries()) {
      site.set('/price-sheet', () => new Response(body, { headers: { 'content-type': 'application/pdf', etag: `"v${i + 1}"` } }));
      // Freshness 0: each asks the site.
      await inGate((gate) => gate.request(ask('/price-sheet', { freshMs: 0 }, asFile), { fetch: site.fetch }, start + i), stub);
      expect(await stub.sharedSize()).toEqual({ pages: 1, bytes: body.byteLength });
      const kept = await inGate((gate) => gate.request(ask('/price-sheet', {}, asFile), { fetch: site.fetch }, start + i), stub);
      if (kept.kind !== 'page' || kept.page.kind !== 'page' || !kept.shared) throw new Error('expected the copy');
      expect(await digest(kept.page.body)).toBe(await digest(body));
    }
    expect(site.received).toHaveLength(3);
    // Nothing of the body kept in pieces is left behind.
    const pieces = await runInDurableObject(stub, (_instance, state) => state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM shared_page_chunks').one().n);
    expect(pieces).toBe(0);
  });

  it('adds the inline body column to a gate made before it, keeping its copies in pieces readable', async () => {
    const id = env.SITE_GATES.newUniqueId();
    const key = sharedKey(url('/old'), {});
    const body = new TextEncoder().encode(html('kept before'));
    // A gate object's storage as the earlier version left it; the object is made afresh after it.
    await runInDurableObject(env.SITE_GATES.get(id), (_instance, state) => {
      state.storage.sql.exec('DROP TABLE shared_pages');
      state.storage.sql.exec(`CREATE TABLE shared_pages (key TEXT PRIMARY KEY, url TEXT NOT NULL, kind TEXT NOT NULL, status INTEGER NOT NULL,
        content_type TEXT, robots_tag TEXT, etag TEXT, last_modified TEXT, bytes INTEGER NOT NULL, fetched_at INTEGER NOT NULL, made_by TEXT)`);
      state.storage.sql.exec(`INSERT INTO shared_pages VALUES (?, ?, 'page', 200, 'text/html', NULL, '"old"', NULL, ?, ?, NULL)`, key, url('/old'), body.byteLength, Date.now());
      state.storage.sql.exec('INSERT INTO shared_page_chunks (key, seq, data) VALUES (?, 0, ?)', key, body);
    });
    await abortAllDurableObjects();
    const site = fakeSite();
    const found = await inGate((gate) => gate.request(ask('/old'), { fetch: site.fetch }), env.SITE_GATES.get(id));
    expect(bodyOf(found)).toContain('kept before');
    expect(site.received).toHaveLength(0);
  });

  it(`keeps at most ${MAX_SHARED_PAGES} pages per site, the ones fetched longest ago evicted first`, async () => {
    const stub = gate();
    const site = fakeSite();
    const start = Date.now();
    const last = `/p/${MAX_SHARED_PAGES}`;
    for (let i = 0; i <= MAX_SHARED_PAGES; i++) site.set(`/p/${i}`, page(`p${i}`, `"${i}"`));
    await inGate(async (gate) => {
      for (let i = 0; i <= MAX_SHARED_PAGES; i++) await gate.request(ask(`/p/${i}`), { fetch: site.fetch }, start + i);
    }, stub);
    expect((await stub.sharedSize()).pages).toBe(MAX_SHARED_PAGES);
    await inGate(async (gate) => {
      expect(await gate.request(ask('/p/0'), { fetch: site.fetch }, start + 1_001)).toMatchObject({ shared: false });
      expect(await gate.request(ask(last), { fetch: site.fetch }, start + 1_001)).toMatchObject({ shared: true });
    }, stub);
    expect(site.requestsOf('/p/0')).toHaveLength(2);
    expect(MAX_SHARED_BYTES).toBeGreaterThanOrEqual(MAX_SHARED_BODY_BYTES);
    await stub.forgetCopies();
    expect(await stub.sharedSize()).toEqual({ pages: 0, bytes: 0 });
  });

  it(`deletes copies the site has not answered for in ${KEEP_MS / 86_400_000} days (the alarm)`, async () => {
    const stub = gate();
    const site = fakeSite();
    site.set('/ancient', page('old', '"old"'));
    site.set('/recent', page('recent', '"recent"'));
    const now = Date.now();
    // Fetched (by a reader's clock) longer ago than KEEP_MS, and a minute ago; the alarm is armed a KEEP_MS ahead.
    await inGate(async (gate) => {
      await gate.request(ask('/ancient'), { fetch: site.fetch }, now - KEEP_MS - 1_000);
      await gate.request(ask('/recent'), { fetch: site.fetch }, now - 60_000);
    }, stub);
    expect((await stub.sharedSize()).pages).toBe(2);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await stub.sharedSize()).pages).toBe(1);
    expect(await inGate((gate) => gate.request(ask('/recent'), { fetch: site.fetch }, now - 60_000 + 1), stub)).toMatchObject({ shared: true });
    // Armed again for the copy left.
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).toBe(now - 60_000 + KEEP_MS);
  });
});
