import type { BookmarkStore, D1Binding, Db, Freshness, RequestSession } from '../ground/db-session.ts';
import { laterBookmark } from '../ground/db-session.ts';

/**
 * D1 sessions, opened here and nowhere else: this file is the one use of the binding (`env.DB`;
 * test/layers/d1-sessions.test.ts checks that no other file touches it), so no statement runs
 * outside a session. A request holds one RequestDb in its core context; a Durable Object holds one
 * ObjectDb across its steps and wake-ups.
 */

/** Opens a D1 session: the only use of the binding in Recon. */
function openSession(env: D1Binding, start: D1SessionConstraint | D1SessionBookmark): D1DatabaseSession {
  return env.DB.withSession(start);
}

/**
 * A request's D1 session, held in its core context (`ctx.db`) and opened at its first statement,
 * so a request that never reaches D1 (a cached key, the catalog) opens none. How it opens:
 *
 * - `first-primary` while the request's freshness is `latest` (the default; a key looked up in D1
 *   keeps it so: `latest()`): the primary holds every write, the client's included, so its bookmark
 *   is not needed;
 * - from the client's bookmark when the request reads `recent` data and the client sent one (its
 *   own writes are there);
 * - `first-unconstrained` otherwise.
 *
 * `bookmark()` is what the doors send back (REST's X-Recon-Bookmark, MCP's `_meta`); it covers the
 * writes a Durable Object made for the request too, once the request `observe`s the object's bookmark.
 */
export class RequestDb implements RequestSession {
  readonly #env: D1Binding;
  #clientBookmark: string | null = null;
  #observed: string | null = null;
  #freshness: Freshness = 'latest';
  #session: D1DatabaseSession | undefined;
  #start: D1SessionConstraint | D1SessionBookmark | undefined;

  constructor(env: D1Binding) {
    this.#env = env;
  }

  /** Declares how fresh the request's reads must be; once the session is open, its start is kept. */
  readsAt(freshness: Freshness): void {
    if (!this.#session) this.#freshness = freshness;
  }

  /** The bookmark the client sent (already checked: readClientBookmark). */
  continueFrom(bookmark: string | null): void {
    if (!this.#session) this.#clientBookmark = bookmark;
  }

  /**
   * This session, for a read that must reach the primary whatever else the request declared (a key
   * looked up in D1: a revoked key must not be read from a replica that has not heard of it). Auth
   * runs first, so the session opens there; should it be open already from a replica, that read
   * gets a session of its own at the primary.
   */
  latest(): Db {
    if (!this.#session) this.#freshness = 'latest';
    else if (this.#start !== 'first-primary') return openSession(this.#env, 'first-primary');
    return this;
  }

  prepare(query: string): D1PreparedStatement {
    return this.#open().prepare(query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.#open().batch<T>(statements);
  }

  /** A write made for this request through another session (a Durable Object's): its bookmark joins the one sent back. */
  observe(bookmark: string | null): void {
    this.#observed = laterBookmark(this.#observed, bookmark);
  }

  /** The latest of the session's bookmark (the client's own when the request did no D1 work) and the observed writes'; null when none exists. */
  bookmark(): string | null {
    return laterBookmark(this.#session?.getBookmark() ?? this.#clientBookmark, this.#observed);
  }

  /** How the session opened (a constraint or the client's bookmark); undefined until its first statement. */
  get start(): D1SessionConstraint | D1SessionBookmark | undefined {
    return this.#start;
  }

  #open(): D1DatabaseSession {
    if (!this.#session) {
      this.#start = this.#freshness === 'latest' ? 'first-primary' : (this.#clientBookmark ?? 'first-unconstrained');
      this.#session = openSession(this.#env, this.#start);
    }
    return this.#session;
  }
}

const OBJECT_BOOKMARK_KEY = 'recon:d1-bookmark';

/**
 * A Durable Object's D1 session: one per instance, so every step of the object reads at least what
 * its earlier steps wrote; its bookmark is kept in the object's storage (`keep()`, after each step
 * and each write), so an instance that starts again (an eviction, a deploy) continues from it. The
 * first session of an object that kept none opens at the primary, which holds what the request
 * that created the object wrote.
 */
export class ObjectDb implements Db {
  readonly #env: D1Binding;
  readonly #store: BookmarkStore;
  #session: D1DatabaseSession | undefined;

  constructor(env: D1Binding, store: BookmarkStore) {
    this.#env = env;
    this.#store = store;
  }

  prepare(query: string): D1PreparedStatement {
    return this.#open().prepare(query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.#open().batch<T>(statements);
  }

  /** Keeps the session's bookmark in the object's storage, unless a later one is kept already. */
  keep(): void {
    const kept = this.kept();
    const latest = laterBookmark(kept, this.#session?.getBookmark() ?? null);
    if (latest !== null && latest !== kept) this.#store.put(OBJECT_BOOKMARK_KEY, latest);
  }

  /**
   * Starts again at the primary (keeping the bookmark so far): for work that must see what another
   * object wrote meanwhile (a watch's research after the site read it waited for).
   */
  catchUp(): void {
    this.keep();
    this.#session = openSession(this.#env, 'first-primary');
  }

  /** The bookmark kept in the object's storage, or null. */
  kept(): string | null {
    return this.#store.get<string>(OBJECT_BOOKMARK_KEY) ?? null;
  }

  #open(): D1DatabaseSession {
    this.#session ??= openSession(this.#env, this.kept() ?? 'first-primary');
    return this.#session;
  }
}
