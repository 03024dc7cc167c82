import { DomainError } from './errors.ts';

/**
 * What the core knows of D1 sessions (D1's Sessions API, which read replication needs): every D1
 * statement Recon runs goes through a session, opened in src/db/d1-sessions.ts, the one file that
 * touches the binding (`env.DB`; test/layers/d1-sessions.test.ts checks that no other does). A
 * request holds one session (`RequestSession`, in its core context); a Durable Object holds one
 * across its steps and wake-ups. Storage functions (src/db/) take either as a `Db`.
 */

/** What storage functions take: D1's binding or one of its sessions, which have `prepare` and `batch` only (no `exec`, no `dump`). */
export type Db = Pick<D1Database, 'prepare' | 'batch'>;

/** Where the binding is: the Worker's `env` (typed apart from Env: the operator CLI compiles this file too). */
export interface D1Binding {
  DB: D1Database;
}

/**
 * How fresh the first read of a request must be. `latest`: at the primary (`first-primary`), for
 * writes and for reads that must see a write (a key's revocation, a run's status after its start,
 * approvals). `recent`: data a moment old will do (OMS reads, search, research, listings, the
 * catalog), so the nearest replica answers (`first-unconstrained`), or one as new as the bookmark
 * the client sent, which holds its own writes.
 */
export type Freshness = 'latest' | 'recent';

/** The longest bookmark accepted from a client: D1's are 59 characters today. */
export const MAX_BOOKMARK_CHARS = 128;
/** D1's bookmarks are groups of lowercase hex digits joined by hyphens (`00000085-0000024c-00004c6d-8e61…`). */
export const BOOKMARK_SHAPE = /^[0-9a-f]+(?:-[0-9a-f]+)*$/;

/** True when `value` has the shape of a D1 bookmark and is no longer than MAX_BOOKMARK_CHARS. */
export function isBookmark(value: string): boolean {
  return value.length <= MAX_BOOKMARK_CHARS && BOOKMARK_SHAPE.test(value);
}

/**
 * The bookmark a client sent (`where`: the header or `_meta` key that carried it), or null when it
 * sent none; anything else is hostile or broken and refused with 400 `invalid_input`, never handed
 * to D1 (which would wait for, or fail on, a position it never reached).
 */
export function readClientBookmark(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && isBookmark(value)) return value;
  const message = `must be a bookmark Recon sent (lowercase hex digits and hyphens, at most ${MAX_BOOKMARK_CHARS} characters)`;
  throw new DomainError('invalid_input', `Invalid ${where}: send back unchanged the bookmark an answer carried, or leave it out.`, { details: [{ path: where, message }] });
}

/** The later of two bookmarks of one database (D1 orders them as strings, as its own session does when it keeps the latest). */
export function laterBookmark(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return a.localeCompare(b) < 0 ? b : a;
}

/** Where a Durable Object keeps its session's bookmark: its synchronous key-value storage (`ctx.storage.kv`). */
export interface BookmarkStore {
  get<T>(key: string): T | undefined;
  put<T>(key: string, value: T): void;
}

/**
 * A request's one D1 session, as the core context holds it (RequestDb in src/db/d1-sessions.ts):
 * opened at its first statement, as fresh as the request declared, and its bookmark for the doors
 * to send back.
 */
export interface RequestSession extends Db {
  /** Declares how fresh the request's reads must be; once the session is open, its start is kept. */
  readsAt(freshness: Freshness): void;
  /** The bookmark the client sent (already checked: readClientBookmark), or null. */
  continueFrom(bookmark: string | null): void;
  /** This session for a read that must reach the primary (a key's lookup), or one of its own at the primary when the request's opened at a replica. */
  latest(): Db;
  /**
   * A write made for this request through another session (a Durable Object's own, which the
   * request waited for): its bookmark joins the one sent back, so a client that sends it reads that
   * write too.
   */
  observe(bookmark: string | null): void;
  /** The latest bookmark of the session and of the writes it observed; the client's own when the request did no D1 work; null when none exists. */
  bookmark(): string | null;
}

/**
 * A session where a signature still names D1Database although it only prepares and batches
 * (src/research/embedded-pipeline.ts, speakers.ts and competitors.ts, until they take a `Db`): the
 * session itself, typed as the binding. Calling `exec`, `dump` or `withSession` on it would throw.
 */
export function asD1Database(db: Db): D1Database {
  return db as D1Database;
}
