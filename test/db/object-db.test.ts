import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { laterBookmark, type BookmarkStore } from '../../src/ground/db-session.ts';
import { ObjectDb } from '../../src/db/d1-sessions.ts';
import { recordingSessions } from '../helpers/recording-sessions.ts';

/**
 * A Durable Object's D1 session (ObjectDb): one session for all its steps, its bookmark kept in the
 * object's storage, and an instance that starts again continues from that bookmark, so a step never
 * reads older data than the step before it wrote.
 */

function memoryStore(): BookmarkStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return { values, get: <T>(key: string) => values.get(key) as T | undefined, put: (key, value) => void values.set(key, value) };
}

const write = (db: ObjectDb) => db.prepare('UPDATE organizations SET name = name WHERE id = ?').bind('org_none').run();

describe("a Durable Object's D1 session", () => {
  it('starts at the primary when nothing is kept, and runs every step through that one session', async () => {
    const { DB, log } = recordingSessions();
    const db = new ObjectDb({ DB }, memoryStore());
    await write(db);
    await db.prepare('SELECT 1').first();
    expect(log.starts).toEqual(['first-primary']);
  });

  it('keeps its bookmark in the object storage, and a new instance continues from it', async () => {
    const store = memoryStore();
    const first = recordingSessions();
    const db = new ObjectDb({ DB: first.DB }, store);
    expect(db.kept()).toBeNull();
    await write(db);
    db.keep();
    const kept = db.kept();
    expect(kept).toBe(first.log.sessions[0]!.getBookmark());

    const restarted = recordingSessions();
    const again = new ObjectDb({ DB: restarted.DB }, store);
    await again.prepare('SELECT 1').first();
    expect(restarted.log.starts).toEqual([kept]);
  });

  it('never keeps an older bookmark over a newer one (two pieces of work that ended out of order)', async () => {
    const store = memoryStore();
    const slow = new ObjectDb(env, store);
    await slow.prepare('SELECT 1').first();
    const fast = new ObjectDb(env, store);
    await write(fast);
    fast.keep();
    const newer = fast.kept();
    slow.keep();
    expect(slow.kept()).toBe(newer);
    expect(laterBookmark(newer, slow.kept())).toBe(newer);
  });

  it('catches up at the primary for work that must see another object writes', async () => {
    const { DB, log } = recordingSessions();
    const store = memoryStore();
    const db = new ObjectDb({ DB }, store);
    await write(db);
    db.catchUp();
    await db.prepare('SELECT 1').first();
    expect(log.starts).toEqual(['first-primary', 'first-primary']);
    expect(store.values.size).toBe(1);
  });
});
