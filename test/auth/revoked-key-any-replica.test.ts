import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { authenticate, KeyCache } from '../../src/auth/authenticate.ts';
import { RequestDb } from '../../src/db/d1-sessions.ts';
import { findKeyByHash } from '../../src/db/api-keys.ts';
import { hashApiKey } from '../../src/ground/api-key.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { envWith, executionContext } from '../helpers/recording-sessions.ts';

/**
 * A revoked key stops working within 10 s whatever replica a request would read from: the key's
 * lookup reaches the primary, even when the client sends an old bookmark (from before the
 * revocation) and the operation reads recent data. The replicas here have not heard of any
 * revocation: a session that does not start at the primary reads every key as active.
 */

/** D1 whose replicas lag: sessions started anywhere but at the primary read `revoked_at` as NULL. */
function laggingReplicas(real: D1Database = env.DB): D1Database {
  return new Proxy(real, {
    get(target, property) {
      if (property !== 'withSession') return Reflect.get(target, property, target);
      return (start?: string) => {
        const session = target.withSession(start);
        if (start === 'first-primary') return session;
        return {
          prepare: (sql: string) => session.prepare(sql.replaceAll('k.revoked_at', 'NULL AS revoked_at')),
          batch: (statements: D1PreparedStatement[]) => session.batch(statements),
          getBookmark: () => session.getBookmark(),
        };
      };
    },
  });
}

function fakeClock(start = 5_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const revoke = (keyId: string) => env.DB.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').bind(new Date().toISOString(), keyId).run();

async function bookmarkNow(): Promise<string> {
  const session = env.DB.withSession('first-primary');
  await session.prepare('SELECT 1').first();
  return session.getBookmark()!;
}

describe('a revoked key, whatever replica serves the request', () => {
  it('has replicas here that would still accept it (the model holds)', async () => {
    const org = await createOrganization();
    await revoke(org.keyId);
    const replica = laggingReplicas().withSession('first-unconstrained');
    expect(await findKeyByHash(replica, await hashApiKey(org.key))).toMatchObject({ revoked: false });
    expect(await findKeyByHash(env.DB.withSession('first-primary'), await hashApiKey(org.key))).toMatchObject({ revoked: true });
  });

  it('stops working once its cache entry is 10 s old, though the client sends a bookmark from before the revocation', async () => {
    const org = await createOrganization();
    const clock = fakeClock();
    const options = { waitUntil: () => {}, cache: new KeyCache(clock.now) };
    const before = await bookmarkNow();
    const lagging = { DB: laggingReplicas() };
    const request = () => {
      const db = new RequestDb(lagging);
      db.readsAt('recent');
      db.continueFrom(before);
      return db;
    };
    await expect(authenticate(env, request(), `Bearer ${org.key}`, options)).resolves.toMatchObject({ keyId: org.keyId });
    await revoke(org.keyId);
    clock.advance(9_999);
    await expect(authenticate(env, request(), `Bearer ${org.key}`, options)).resolves.toMatchObject({ keyId: org.keyId });
    clock.advance(1);
    await expect(authenticate(env, request(), `Bearer ${org.key}`, options)).rejects.toThrow(/revoked/);
  });

  it('is refused even by a request whose session already opened at a replica', async () => {
    const org = await createOrganization();
    await revoke(org.keyId);
    const db = new RequestDb({ DB: laggingReplicas() });
    db.readsAt('recent');
    await db.prepare('SELECT 1').first();
    await expect(authenticate(env, db, `Bearer ${org.key}`, { waitUntil: () => {}, cache: new KeyCache() })).rejects.toThrow(/revoked/);
  });

  it('is refused over REST (401) on a read of recent data sent with an old bookmark', async () => {
    const org = await createOrganization();
    const before = await bookmarkNow();
    await revoke(org.keyId);
    const { ctx, settled } = executionContext();
    const response = await app.request(
      'https://recon.test/api/v1/oms/objects/search',
      { method: 'POST', body: JSON.stringify({ type: 'company' }), headers: { Authorization: `Bearer ${org.key}`, 'Content-Type': 'application/json', 'X-Recon-Bookmark': before } },
      envWith(laggingReplicas()),
      ctx,
    );
    await settled();
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'unauthorized', message: expect.stringMatching(/revoked/) });
  });
});
