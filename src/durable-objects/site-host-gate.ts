import { DurableObject } from 'cloudflare:workers';
import type { SitePage } from '../sites/fetch-page.ts';
import { MAX_PUSHBACK_MS } from '../sites/retry-after.ts';
import { answerFrom, copyOf, isFresh, validatorsOf, type Validators } from '../sites/shared-page.ts';
import { SharedPageStore } from '../db/shared-page-store.ts';

/**
 * The politeness of every site read towards one site, whichever organization reads it, and the
 * site's shared copy: one `SiteHostGate` per site (addressed by its domain).
 *
 * Turns. It hands out request starts at most `maxInFlight` at a time, each at least `gapMs` after
 * the previous start (and after the previous answer, when that came later). A read asks it before
 * each request (`acquire`), waits the time it is given, and gives the slot back when the answer is
 * in (`release`). Two organizations reading the same site at once share its 2 requests in flight
 * and its delay, rather than doubling them. A slot not given back (its read died) frees itself after
 * LEASE_MS. The latest start is kept in the object's storage, so a restarted gate never starts a
 * request sooner than a gap after it (the latest answer, kept in memory, may be forgotten then: one
 * write per request rather than two); leases live in memory (a restart forgets them, which at worst
 * lets one slot go early, never a request sooner than the gap).
 *
 * Pushback. When the site answers 429 or 503, the reader that got it pauses the whole site
 * (`pause`): no slot starts before then, for any organization. The pause is in storage, so a
 * restart keeps it, and at most MAX_PUSHBACK_MS ahead, whatever a caller asks.
 *
 * The shared copy. Public pages are the same for every organization, so a page the site answered
 * within a caller's freshness window is answered from the copy the gate keeps (shared-page-store.ts)
 * rather than fetched again, and one URL asked by several reads at once is fetched once. The gate
 * does not fetch itself: a read's request carries functions of the read (its robots.txt's `allows`
 * for each redirect, its frontier's `claim`), which cannot cross into another object and be asked
 * synchronously, so the reader that is told to fetch (`lookup` answers `fetch` with a ticket) takes
 * a turn and fetches as before, then hands the answer in (`settle`). Meanwhile other readers of the
 * same request wait on it (`lookup` holds them up to SHARE_WAIT_MS, then they ask again) and get
 * the copy, or the failure. A reader fetching for the copy sends the copy's validators, never its
 * own (those say what its organization stored, which is no one else's business); a reader whose own
 * validators name the current copy is answered `not-modified`, as the site would have.
 * A ticket never settled (its reader died) is abandoned after TICKET_MS; copies the site has not
 * answered for in KEEP_MS are deleted by the alarm.
 *
 * Storage keys (kv): `lastRequestAt` (ms, the latest start), `pausedUntil` (ms, the site's pushback).
 * Tables: see shared-page-store.ts.
 */

/** A slot not released within this time is free again: the page deadline (10 s) plus margin. */
export const LEASE_MS = 15_000;
/** How long `lookup` holds a reader while another fetches the same request; it then asks again. */
export const SHARE_WAIT_MS = 10_000;
/** A fetch for the copy not settled within this time is given to the next reader: the longest pause, a turn and the page deadline, with margin. */
export const TICKET_MS = MAX_PUSHBACK_MS + 2 * LEASE_MS;
/** Copies the site has not answered for in this long are deleted (the alarm). */
export const KEEP_MS = 7 * 24 * 60 * 60 * 1000;
/** The longest freshness a caller may ask for (SITE_READ_SHARED_FRESH_MS is bounded the same). */
export const MAX_FRESH_MS = 24 * 60 * 60 * 1000;

/** The latest request start: the next start is a gap after it (and after the latest answer). */
const LAST_KEY = 'lastRequestAt';
/** The site's pushback: no request starts before this time (ms). */
const PAUSE_KEY = 'pausedUntil';

/** A turn, or when to ask again (with `pausedUntil` while the site's pushback lasts). */
export type GateAnswer = { lease: string; waitMs: number } | { lease: null; retryInMs: number; pausedUntil?: number };

/** One request a reader asks of the shared copy. */
export interface SharedRequest {
  /** sharedKey(url, options): what is asked, and the URL. */
  key: string;
  url: string;
  /** The reader's own validators (its organization's stored copy): only compared, never sent. */
  caller?: Validators;
  /** A copy fetched less than this long ago answers without a request (0: always ask the site). */
  freshMs: number;
  /** Who reads (its organization): a copy made for the same reader never answers it (isFresh). */
  reader?: string;
}

/**
 * `answer`: answered from the copy (or with another reader's failure, fetched just now); `fetch`: this
 * reader fetches, sending `conditional` (the copy's validators), then settles `ticket`; `wait`:
 * another reader's fetch is under way or gave nothing to share: ask again.
 */
export type SharedLookup = { kind: 'answer'; page: SitePage } | { kind: 'fetch'; ticket: string; conditional?: Validators; turn?: GateAnswer } | { kind: 'wait' };

/** The turn a reader asks for along with a lookup (acquire's arguments). */
export interface TurnAsk {
  gapMs: number;
  maxInFlight: number;
}

/** A fetch under way for the copy: its ticket, when it is abandoned, and its waiters' wake-up. */
interface Fetching {
  ticket: string;
  expires: number;
  /** Resolved when settled: a failure to pass on, or nothing (the copy answers, or ask again). */
  done: Promise<SitePage | undefined>;
  settle(failure: SitePage | undefined): void;
}

export class SiteHostGate extends DurableObject {
  /** Lease id -> when it expires (ms). */
  readonly #leases = new Map<string, number>();
  /** The latest answer (ms), in memory only: the starts are what storage keeps. */
  #lastAnswer = 0;
  /** Request key -> the fetch under way for it. */
  readonly #fetching = new Map<string, Fetching>();
  readonly #pages: SharedPageStore;
  /** The stored latest start and pause, as last read or written (the gate is their only writer). */
  #lastStart: number | undefined;
  #pausedUntil: number | undefined;
  /** Whether the cleanup alarm is known to be set. */
  #cleanupArmed = false;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.#pages = new SharedPageStore(ctx.storage);
  }

  /**
   * A request start: a lease and how long to wait before starting (`gapMs` after the latest start or
   * answer), or, with `maxInFlight` leases out or the site paused, when to ask again. `now` is the
   * clock (tests pass a later time).
   */
  async acquire(gapMs: number, maxInFlight: number, now = Date.now()): Promise<GateAnswer> {
    for (const [lease, expires] of this.#leases) if (expires <= now) this.#leases.delete(lease);
    const pausedUntil = this.#storedPause();
    // No lease during a pause: a slot held through two minutes would be a slot nobody uses.
    if (pausedUntil > now) return { lease: null, retryInMs: pausedUntil - now, pausedUntil };
    if (this.#leases.size >= maxInFlight) {
      const soonest = Math.min(...this.#leases.values());
      return { lease: null, retryInMs: Math.max(10, Math.min(soonest - now, 250)) };
    }
    // The gap is the asker's (a read knows its site's Crawl-delay only once robots.txt is in), after
    // the latest start and the latest answer.
    const last = Math.max((this.#lastStart ??= this.ctx.storage.kv.get<number>(LAST_KEY) ?? 0), this.#lastAnswer);
    const start = Math.max(now, last + Math.max(0, gapMs));
    this.ctx.storage.kv.put(LAST_KEY, start);
    this.#lastStart = start;
    const lease = crypto.randomUUID();
    this.#leases.set(lease, start + LEASE_MS);
    return { lease, waitMs: start - now };
  }

  /** Gives a slot back (a lease already expired or unknown changes nothing); the next gap counts from this answer if it is the latest. */
  async release(lease: string, now = Date.now()): Promise<void> {
    this.#leases.delete(lease);
    this.#lastAnswer = Math.max(this.#lastAnswer, now);
  }

  /**
   * The site pushed back: no slot starts before `untilMs` (at most MAX_PUSHBACK_MS after `now`), for
   * any reader; a longer pause already set stays. Returns the time the pause ends.
   */
  async pause(untilMs: number, now = Date.now()): Promise<number> {
    const until = Math.max(this.#storedPause(), Math.min(untilMs, now + MAX_PUSHBACK_MS));
    this.ctx.storage.kv.put(PAUSE_KEY, until);
    this.#pausedUntil = until;
    return until;
  }

  #storedPause(): number {
    return (this.#pausedUntil ??= this.ctx.storage.kv.get<number>(PAUSE_KEY) ?? 0);
  }

  /** When the site's pause ends (ms), if one lasts at `now`. */
  async pausedUntil(now = Date.now()): Promise<number | undefined> {
    const until = this.#storedPause();
    return until > now ? until : undefined;
  }

  /**
   * What a reader does about one request: see SharedLookup. With `turn`, a reader told to fetch is
   * given its turn in the same call (`acquire`'s answer as `turn`): one round trip per request
   * rather than two.
   */
  async lookup(request: SharedRequest, now = Date.now(), turn?: TurnAsk): Promise<SharedLookup> {
    const found = await this.#lookup(request, now);
    if (found.kind !== 'fetch' || turn === undefined) return found;
    return { ...found, turn: await this.acquire(turn.gapMs, turn.maxInFlight, now) };
  }

  /** lookup without a turn: the copy, a wait on the fetch under way, or a new ticket. */
  #lookup(request: SharedRequest, now: number): SharedLookup | Promise<SharedLookup> {
    const freshMs = Math.min(Math.max(0, request.freshMs), MAX_FRESH_MS);
    const copy = this.#pages.get(request.key);
    if (copy && isFresh(copy, freshMs, now, request.reader)) return { kind: 'answer', page: answerFrom(copy, request.url, request.caller) };
    const under = this.#fetching.get(request.key);
    if (under && under.expires > now) return this.#waitFor(under, request);
    const fetching = newFetching(now + TICKET_MS);
    this.#fetching.set(request.key, fetching);
    const conditional = validatorsOf(copy);
    return { kind: 'fetch', ticket: fetching.ticket, ...(conditional ? { conditional } : {}) };
  }

  /**
   * The answer of a fetch `lookup` gave `ticket` for: kept when shareable (a 304 confirms the copy),
   * passed to the readers waiting on it, and returned as the fetching reader is to take it (its own
   * validators compared with the copy, as for everyone); undefined when the 304 confirmed a copy
   * that is gone meanwhile (evicted): the reader asks again.
   */
  async settle(ticket: string, request: SharedRequest, page: SitePage, now = Date.now()): Promise<SitePage | undefined> {
    let answer: SitePage | undefined = page;
    if (page.kind === 'not-modified') {
      const copy = this.#pages.get(request.key);
      if (copy) this.#pages.touch(request.key, now, request.reader);
      answer = copy ? answerFrom(copy, request.url, request.caller) : undefined;
    } else {
      const copy = copyOf(page, now, request.reader);
      if (copy) {
        this.#pages.put(request.key, copy);
        answer = answerFrom(copy, request.url, request.caller);
        await this.#armCleanup();
      } else if (page.kind === 'page') {
        // The site answered with a body too large to keep: the old copy is not the page any more.
        this.#pages.delete(request.key);
      }
    }
    this.#finish(request.key, ticket, page.kind === 'failed' ? page : undefined);
    return answer;
  }

  /**
   * `settle` and `release` in one call, for a reader whose turn ends with the answer it hands in.
   * The answer comes back as `as-fetched` when it is the very page the reader handed in, rather than
   * its body sent back across.
   */
  async settleTurn(ticket: string, request: SharedRequest, page: SitePage, lease: string, now = Date.now()): Promise<SitePage | 'as-fetched' | undefined> {
    await this.release(lease, now);
    const answer = await this.settle(ticket, request, page, now);
    return page.kind === 'page' && answer?.kind === 'page' && answer.url === page.url ? 'as-fetched' : answer;
  }

  /** A reader told to fetch did not (it gave up, or failed before asking): the next reader fetches. */
  async abandon(ticket: string, key: string): Promise<void> {
    this.#finish(key, ticket, undefined);
  }

  /** Deletes copies the site has not answered for in KEEP_MS; armed again for the oldest left. */
  override async alarm(): Promise<void> {
    const oldest = this.#pages.deleteFetchedBefore(Date.now() - KEEP_MS);
    if (oldest !== null) await this.ctx.storage.setAlarm(oldest + KEEP_MS);
    this.#cleanupArmed = oldest !== null;
  }

  /**
   * Drops every copy of the site: the next request of each page reaches the site (with no
   * validators). For an operator who knows the site changed, and tests that change a page and read
   * it again within the freshness window.
   */
  async forgetCopies(): Promise<void> {
    this.#pages.deleteFetchedBefore(Number.MAX_SAFE_INTEGER);
  }

  /** How many copies and body bytes the site's shared copy holds. */
  async sharedSize(): Promise<{ pages: number; bytes: number }> {
    return this.#pages.size();
  }

  /** A waiter: the copy once the fetch under way is settled, its failure, or `wait` (ask again). */
  async #waitFor(under: Fetching, request: SharedRequest): Promise<SharedLookup> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), SHARE_WAIT_MS);
    });
    const outcome = await Promise.race([under.done, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') return { kind: 'wait' };
    if (outcome !== undefined) return { kind: 'answer', page: outcome };
    // Settled: answered from the copy it left, whatever the waiter's freshness (it was fetched after the waiter asked).
    const copy = this.#pages.get(request.key);
    return copy ? { kind: 'answer', page: answerFrom(copy, request.url, request.caller) } : { kind: 'wait' };
  }

  /** Ends the fetch under way for `key` if `ticket` is still its own, waking its waiters. */
  #finish(key: string, ticket: string, failure: SitePage | undefined): void {
    const under = this.#fetching.get(key);
    if (under?.ticket !== ticket) return;
    this.#fetching.delete(key);
    under.settle(failure);
  }

  /** The alarm keeps time by the object's own clock (a caller's `now` is for the turns and the freshness). */
  async #armCleanup(): Promise<void> {
    if (this.#cleanupArmed) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + KEEP_MS);
    this.#cleanupArmed = true;
  }
}

function newFetching(expires: number): Fetching {
  let settle: (failure: SitePage | undefined) => void = () => {};
  const done = new Promise<SitePage | undefined>((resolve) => {
    settle = resolve;
  });
  return { ticket: crypto.randomUUID(), expires, done, settle };
}
