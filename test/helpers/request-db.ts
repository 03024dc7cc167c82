import { env } from 'cloudflare:workers';
import type { Db } from '../../src/ground/db-session.ts';
import { RequestDb } from '../../src/db/d1-sessions.ts';

/**
 * A request's D1 session over `db`: the real binding's session by default; given a D1 that records
 * or interposes (a Proxy around the real binding), a RequestDb whose session is that D1 itself, so
 * every statement the core runs goes through it.
 */
export function requestDbOver(db?: Db): RequestDb {
  if (db === undefined) return new RequestDb(env);
  return new RequestDb({ DB: { withSession: () => db } as unknown as D1Database });
}
