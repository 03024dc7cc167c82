import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { isBookmark, laterBookmark } from '../../src/ground/db-session.ts';
import { RequestDb } from '../../src/db/d1-sessions.ts';
import { recordingSessions } from '../helpers/recording-sessions.ts';

/**
 * How a request's one D1 session opens (src/db/d1-sessions.ts, RequestDb): at its first
 * statement, at the primary unless the request reads `recent` data, then from the client's
 * bookmark when it sent one; and which bookmark it reports for the doors to send back.
 */

const read = (db: RequestDb) => db.prepare('SELECT 1 AS one').first();

/** A bookmark D1 has issued (the position of the statement just run). */
async function issuedBookmark(): Promise<string> {
  const session = env.DB.withSession('first-primary');
  await session.prepare('SELECT 1').first();
  return session.getBookmark()!;
}

describe('a request D1 session', () => {
  it('opens none until a statement runs; reports the bookmark the client sent meanwhile, or none', () => {
    const { DB, log } = recordingSessions();
    const db = new RequestDb({ DB });
    expect(db.bookmark()).toBeNull();
    db.continueFrom('00000000-00000001-00000000-00000000000000000000000000000000');
    expect(db.bookmark()).toBe('00000000-00000001-00000000-00000000000000000000000000000000');
    expect(log.starts).toEqual([]);
  });

  it('starts at the primary by default, even when the client sent a bookmark (the primary holds it)', async () => {
    const { DB, log } = recordingSessions();
    const db = new RequestDb({ DB });
    db.continueFrom(await issuedBookmark());
    await read(db);
    await read(db);
    expect(log.starts).toEqual(['first-primary']);
    expect(db.start).toBe('first-primary');
  });

  it('reading recent data, starts from the client bookmark, and reports the session bookmark', async () => {
    const { DB, log } = recordingSessions();
    const sent = await issuedBookmark();
    const db = new RequestDb({ DB });
    db.readsAt('recent');
    db.continueFrom(sent);
    await read(db);
    expect(log.starts).toEqual([sent]);
    const reported = db.bookmark();
    expect(reported).toBe(log.sessions[0]!.getBookmark());
    expect(laterBookmark(reported, sent)).toBe(reported);
  });

  it('reading recent data without a bookmark, starts at any replica (first-unconstrained)', async () => {
    const { DB, log } = recordingSessions();
    const db = new RequestDb({ DB });
    db.readsAt('recent');
    await read(db);
    expect(log.starts).toEqual(['first-unconstrained']);
  });

  it('keeps the start it opened with: a later declaration changes nothing', async () => {
    const { DB, log } = recordingSessions();
    const db = new RequestDb({ DB });
    await read(db);
    db.readsAt('recent');
    db.continueFrom(await issuedBookmark());
    await read(db);
    expect(log.starts).toEqual(['first-primary']);
  });

  it('answers a read that must be latest from the primary, in a session of its own if the request opened one at a replica', async () => {
    const { DB, log } = recordingSessions();
    const db = new RequestDb({ DB });
    expect(db.latest()).toBe(db);
    db.readsAt('recent');
    expect(db.latest()).toBe(db);
    await read(db);
    expect(log.starts).toEqual(['first-primary']);

    const replica = recordingSessions();
    const opened = new RequestDb({ DB: replica.DB });
    opened.readsAt('recent');
    await read(opened);
    await opened.latest().prepare('SELECT 1').first();
    expect(replica.log.starts).toEqual(['first-unconstrained', 'first-primary']);
  });

  it("reports the later of its own bookmark and the writes it observed (a Durable Object's session)", async () => {
    const { DB } = recordingSessions();
    const db = new RequestDb({ DB });
    db.observe(null);
    expect(db.bookmark()).toBeNull();
    await read(db);
    const own = db.bookmark()!;
    const later = await issuedBookmark();
    db.observe(later);
    expect(db.bookmark()).toBe(laterBookmark(own, later));
    db.observe('00000000-00000000-00000000-00000000000000000000000000000000');
    expect(db.bookmark()).toBe(laterBookmark(own, later));
  });

  it('reports bookmarks of the shape clients may send back (what local D1 issues)', async () => {
    const db = new RequestDb(env);
    await read(db);
    const bookmark = db.bookmark();
    expect(bookmark).not.toBeNull();
    expect(isBookmark(bookmark!)).toBe(true);
  });
});
