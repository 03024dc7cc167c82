import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/ground/config.ts';
import { clientFor, type SiteClock } from '../../../src/sites/read/site-client.ts';
import { MAX_PUSHBACK_MS, MAX_PUSHBACK_RETRIES } from '../../../src/sites/politeness.ts';
import { siteLog, siteOrigin } from '../../helpers/sites.ts';
import { COMPANY_DOMAINS } from '../fixture-sites.ts';

/**
 * The site client against a loopback site: a page refused with 429 and Retry-After is asked again
 * after the site's pause, at most twice; a pause past the caller's deadline ends the request with
 * the pushback; the shared copy answers within its freshness window and is revalidated with its own
 * validators after it. Each test has a gate of its own (the client is given it) and a clock of its
 * own that moves only when the client sleeps, so nothing waits and nothing is timed; each uses a
 * path of its own on COMPANY_DOMAINS[8], which this file owns (it changes pages and reads the log).
 */
const DOMAIN = COMPANY_DOMAINS[8];

/** A clock that stands still until the client sleeps, then jumps; `onSleep` lets a test change the site meanwhile. */
function testClock(onSleep: (ms: number) => Promise<void> = async () => {}): SiteClock & { advance(ms: number): void } {
  let now = Date.now();
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      await onSleep(ms);
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** A gate no other test uses (the client's clock is written into it). */
const ownGate = () => env.SITE_GATES.get(env.SITE_GATES.idFromName(`${crypto.randomUUID()}.example`));

/** Sets the page at `path` to answer `status` with `headers` (replacing the page's extra headers). */
async function setPage(path: string, body: string, status: number, headers: Record<string, string> = {}): Promise<void> {
  const query = new URLSearchParams({ path, status: String(status), headers: JSON.stringify(headers) });
  const response = await fetch(`${siteOrigin(DOMAIN)}/__site/pages?${query}`, { method: 'PUT', body });
  if (!response.ok) throw new Error(`PUT ${path} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/** The GETs of `path` the site answered, in order. */
async function requestsOf(path: string) {
  return (await siteLog(DOMAIN)).requests.filter((request) => request.method === 'GET' && request.path === path);
}

const uniquePath = (name: string) => `/${name}-${crypto.randomUUID()}`;
const text = (page: { body: Uint8Array }) => new TextDecoder().decode(page.body);

describe('the site client when the site pushes back (429/503 with Retry-After)', () => {
  it('pauses for Retry-After: 1, asks again and gets the page: two requests', async () => {
    const path = uniquePath('busy');
    await setPage(path, '<p>busy</p>', 429, { 'retry-after': '1' });
    const slept: number[] = [];
    // The site recovers while the client waits out its pause.
    const clock = testClock(async (ms) => {
      slept.push(ms);
      if (ms >= 1_000) await setPage(path, '<!doctype html><title>ok</title><p>ok</p>', 200);
    });
    const page = await clientFor(env, DOMAIN, undefined, { gate: ownGate(), clock }).request(`https://${DOMAIN}${path}`);
    expect(page.kind).toBe('page');
    if (page.kind !== 'page') return;
    expect(text(page)).toContain('ok');
    expect((await requestsOf(path)).map((request) => request.status)).toEqual([429, 200]);
    expect(slept).toContain(1_000);
  });

  it('caps Retry-After: 86400 at MAX_PUSHBACK_MS, pauses the site for every reader, and gives up before a deadline it would pass', async () => {
    const path = uniquePath('closed');
    await setPage(path, '<p>closed</p>', 503, { 'retry-after': '86400' });
    const gate = ownGate();
    const clock = testClock();
    const start = clock.now();
    const deadline = start + 10_000;
    const page = await clientFor(env, DOMAIN, undefined, { gate, clock }).request(`https://${DOMAIN}${path}`, {}, { deadline });
    expect(page).toMatchObject({ kind: 'failed', status: 503, retryAfter: '86400', pushback: { retryAfterMs: MAX_PUSHBACK_MS, until: new Date(start + MAX_PUSHBACK_MS).toISOString() } });
    expect(await gate.pausedUntil(start)).toBe(start + MAX_PUSHBACK_MS);
    // Another organization's read of the site, on the same gate: not requested at all during the pause.
    const other = await clientFor(env, DOMAIN, undefined, { gate, clock }).request(`https://${DOMAIN}${uniquePath('other')}`, {}, { deadline });
    expect(other).toMatchObject({ kind: 'failed', pushback: { until: new Date(start + MAX_PUSHBACK_MS).toISOString() } });
    expect(await requestsOf(path)).toHaveLength(1);
  });

  it(`returns the pushback after ${MAX_PUSHBACK_RETRIES + 1} refusals, each request after the pause`, async () => {
    const path = uniquePath('refusing');
    await setPage(path, '<p>no</p>', 429, { 'retry-after': '5' });
    const clock = testClock();
    const page = await clientFor(env, DOMAIN, undefined, { gate: ownGate(), clock }).request(`https://${DOMAIN}${path}`);
    expect(page).toMatchObject({ kind: 'failed', status: 429, pushback: { retryAfterMs: 5_000 } });
    const requests = await requestsOf(path);
    expect(requests.map((request) => request.status)).toEqual([429, 429, 429]);
  });

  it('pauses DEFAULT_PUSHBACK_MS after a 503 without Retry-After', async () => {
    const path = uniquePath('overloaded');
    await setPage(path, '<p>overloaded</p>', 503);
    const clock = testClock();
    const page = await clientFor(env, DOMAIN, undefined, { gate: ownGate(), clock }).request(`https://${DOMAIN}${path}`, {}, { deadline: clock.now() + 1_000 });
    expect(page).toMatchObject({ kind: 'failed', pushback: { retryAfterMs: 30_000 } });
  });
});

describe('the site client and the shared copy', () => {
  it('answers every reader from the copy within the freshness window, then revalidates with the copy’s validators, never a reader’s own', async () => {
    const path = uniquePath('fresh');
    const url = `https://${DOMAIN}${path}`;
    await setPage(path, '<!doctype html><title>v1</title><p>v1</p>', 200);
    const gate = ownGate();
    const clock = testClock();
    const freshMs = readConfig(env).SITE_READ_SHARED_FRESH_MS;
    const orgA = clientFor(env, DOMAIN, undefined, { gate, clock });
    const orgB = clientFor(env, DOMAIN, undefined, { gate, clock });

    const first = await orgA.request(url);
    expect(first).toMatchObject({ kind: 'page' });
    expect(first.shared).toBeUndefined();
    const etag = first.kind === 'page' ? first.etag : undefined;
    expect(etag).toBeTruthy();
    const second = await orgB.request(url, { conditional: { etag: '"org-b-own"' } });
    expect(second).toMatchObject({ kind: 'page', shared: true });
    // A reader whose own validators name the copy is answered as the site would: not modified.
    expect(await orgB.request(url, { conditional: { etag } })).toEqual({ kind: 'not-modified', url, shared: true });
    expect(await requestsOf(path)).toHaveLength(1);

    // The site changes; within the window the copy still answers.
    await setPage(path, '<!doctype html><title>v2</title><p>v2</p>', 200);
    clock.advance(freshMs - 1);
    const stillOld = await orgB.request(url);
    expect(stillOld.kind === 'page' && text(stillOld)).toContain('v1');
    expect(await requestsOf(path)).toHaveLength(1);

    // Past the window: asked again, with the copy's validators, and the new page is the copy now.
    clock.advance(1);
    const changed = await orgB.request(url, { conditional: { etag: '"org-b-own"' } });
    expect(changed.kind === 'page' && text(changed)).toContain('v2');
    expect(changed.shared).toBeUndefined();
    const requests = await requestsOf(path);
    expect(requests).toHaveLength(2);
    expect(requests[1]).toMatchObject({ ifNoneMatch: etag, status: 200 });
    expect(requests.every((request) => request.ifNoneMatch !== '"org-b-own"')).toBe(true);
    expect(await orgA.request(url)).toMatchObject({ kind: 'page', shared: true });
  });

  it('does not keep a failure: the next reader asks the site again', async () => {
    const path = uniquePath('broken');
    const url = `https://${DOMAIN}${path}`;
    await setPage(path, '<p>broken</p>', 500);
    const gate = ownGate();
    const clock = testClock();
    expect(await clientFor(env, DOMAIN, undefined, { gate, clock }).request(url)).toMatchObject({ kind: 'failed', status: 500 });
    expect(await clientFor(env, DOMAIN, undefined, { gate, clock }).request(url)).toMatchObject({ kind: 'failed', status: 500 });
    expect(await requestsOf(path)).toHaveLength(2);
  });
});
