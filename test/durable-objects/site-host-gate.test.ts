import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { LEASE_MS } from '../../src/durable-objects/site-host-gate.ts';

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
