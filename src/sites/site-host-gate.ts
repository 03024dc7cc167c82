import { DurableObject } from 'cloudflare:workers';
import { fetchSitePage, type SitePage, type SitePageOptions } from './fetch-page.ts';
import { MAX_PUSHBACK_MS, pushbackMs } from './politeness.ts';
import { answerFrom, copyOf, isFresh, sharedKey, validatorsOf, type SharedCopy, type Validators } from './shared-page.ts';
import { SharedPageStore } from '../db/shared-page-store.ts';

/**
 * The politeness of every site read towards one site, whichever organization reads it, and the
 * site's shared copy: one `SiteHostGate` per site (addressed by its domain). A read asks it for each
 * page (`request`), and the gate requests the page itself, in the site's turn: one round trip per page.
 *
 * Turns. It hands out request starts at most `maxInFlight` at a time, each at least `gapMs` after
 * the previous start (and after the previous answer, when that came later); a request waits for its
 * start inside the gate, and its slot is free again when its answer is in. Two organizations reading
 * the same site at once share its 2 requests in flight and its delay, rather than doubling them. A
 * page rendered in a browser takes a turn from outside (`acquire`, then `release` when it is done); a
 * slot not given back (its read died) frees itself after LEASE_MS. The latest start is kept in the
 * object's storage, so a restarted gate never starts a request sooner than a gap after it (the latest
 * answer, kept in memory, may be forgotten then: one write per request rather than two); leases live
 * in memory (a restart forgets them, which at worst lets one slot go early, never a request sooner
 * than the gap).
 *
 * Pushback. When the site answers 429 or 503, the gate pauses the whole site for the Retry-After
 * asked (pushbackMs), at most MAX_PUSHBACK_MS: no request starts before then, for any organization.
 * The pause is in storage, so a restart keeps it. During a pause `request` answers `paused` at once
 * (a read decides whether to wait, by its own deadline, and asks again).
 *
 * The shared copy. Public pages are the same for every organization, so a page the site answered
 * within a caller's freshness window is answered from the copy the gate keeps (shared-page-store.ts)
 * rather than fetched again, and one URL asked by several reads at once is fetched once: the first
 * fetches, the others wait on its fetch in the gate and get the copy it left, or its failure (they
 * fetch themselves when it left neither: an answer that depended on its reader). The site is sent the
 * copy's validators, never a reader's own (those say what its organization stored, which is no one
 * else's business); a reader whose own validators name the current copy is answered `not-modified`,
 * as the site would have. A fetch whose waiters hear nothing within TICKET_MS is given up on; copies
 * the site has not answered for in KEEP_MS are deleted by the alarm.
 *
 * What is the reader's crosses with each request and stays out of the copy: its user agent, origin
 * overrides and page deadline, and two functions of the read asked only when the site redirects
 * (its robots.txt's `allows` for the host a redirect lands on, its frontier's `claim`): they are
 * called back across objects, and the answer they shape (a skip, an unfollowed redirect) is never kept.
 *
 * Storage keys (kv): `lastRequestAt` (ms, the latest start), `pausedUntil` (ms, the site's pushback).
 * Tables: see shared-page-store.ts.
 */

/** A slot not released within this time is free again: the page deadline (10 s) plus margin. */
export const LEASE_MS = 15_000;
/** A fetch for the copy whose waiters hear nothing within this time is given up on (they fetch themselves): far longer than a turn's wait and the page deadline (10 s). */
export const TICKET_MS = MAX_PUSHBACK_MS + 2 * LEASE_MS;
/** Copies the site has not answered for in this long are deleted (the alarm). */
export const KEEP_MS = 7 * 24 * 60 * 60 * 1000;
/** The longest freshness a caller may ask for (SITE_READ_SHARED_FRESH_MS is bounded the same). */
export const MAX_FRESH_MS = 24 * 60 * 60 * 1000;
/**
 * How many times one request looks at the shared copy before it gives up: each time, another
 * reader's fetch ended with nothing to share (its answer depended on its reader) or a 304 confirmed
 * a copy evicted meanwhile.
 */
const MAX_SHARED_LOOKUPS = 24;

/** The latest request start: the next start is a gap after it (and after the latest answer). */
const LAST_KEY = 'lastRequestAt';
/** The site's pushback: no request starts before this time (ms). */
const PAUSE_KEY = 'pausedUntil';

/** A turn, or when to ask again (with `pausedUntil` while the site's pushback lasts). */
export type GateAnswer = { lease: string; waitMs: number } | { lease: null; retryInMs: number; pausedUntil?: number };

/** The turn a reader asks for: its gap (the site's Crawl-delay, or the least delay) and the most requests at once. */
export interface TurnAsk {
  gapMs: number;
  maxInFlight: number;
}

/** fetchSitePage's options a reader sends: its own (user agent, origin overrides, deadline) and what it asks for. */
export type GatePageOptions = Pick<SitePageOptions, 'domain' | 'userAgent' | 'originOverrides' | 'timeoutMs' | 'file' | 'documents' | 'redirectsBefore'>;

/**
 * The functions of a read a request may call back, only when the site redirects: see
 * SitePageOptions. `fetch` is for tests that call the gate in its own object (a fake site).
 */
export type ReaderHooks = Pick<SitePageOptions, 'allows' | 'claim' | 'fetch'>;

/** One page a reader asks of the site. */
export interface PageRequest {
  url: string;
  page: GatePageOptions;
  /** The reader's own validators (its organization's stored copy): only compared, never sent. */
  caller?: Validators;
  /** A copy fetched less than this long ago answers without a request (0: always ask the site). */
  freshMs: number;
  /** Who reads (its organization): a copy made for the same reader never answers it (isFresh). */
  reader?: string;
  turn: TurnAsk;
}

/** The site's pause after a 429 or 503: how long it asked (capped), and when it ends (ms). */
export interface SitePause {
  retryAfterMs: number;
  until: number;
}

/**
 * What a request gave: `page`, from the site or, `shared`, from the copy or another reader's fetch
 * (with `pause` when it is a 429 or 503 that paused the site); or `paused`: the site's pause lasts,
 * nothing was requested, ask again in `retryInMs`.
 */
export type PageReply = { kind: 'page'; page: SitePage; shared: boolean; pause?: SitePause } | { kind: 'paused'; retryInMs: number; pausedUntil: number };

/** What a fetch for the copy leaves its waiters: the copy it kept, a failure to pass on, or nothing (each asks again). */
type Outcome = { kind: 'copy'; copy: SharedCopy } | { kind: 'failure'; page: SitePage; pause?: SitePause } | { kind: 'none' };

/** A fetch under way for the copy: when it is given up on, and its waiters' wake-up. */
interface Fetching {
  expires: number;
  done: Promise<Outcome>;
  finish(outcome: Outcome): void;
}

export class SiteHostGate extends DurableObject {
  /** Lease id -> when it expires (ms). */
  readonly #leases = new Map<string, number>();
  /** The latest answer (ms), in memory only: the starts are what storage keeps. */
  #lastAnswer = 0;
  /** Requests waiting inside the gate for a slot: woken when one is released. */
  #slotWaiters: (() => void)[] = [];
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
    return this.#acquire(gapMs, maxInFlight, now);
  }

  #acquire(gapMs: number, maxInFlight: number, now: number): GateAnswer {
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
    this.#release(lease, now);
  }

  #release(lease: string, now: number): void {
    this.#leases.delete(lease);
    this.#lastAnswer = Math.max(this.#lastAnswer, now);
    const waiters = this.#slotWaiters;
    this.#slotWaiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * The site pushed back: no slot starts before `untilMs` (at most MAX_PUSHBACK_MS after `now`), for
   * any reader; a longer pause already set stays. Returns the time the pause ends.
   */
  async pause(untilMs: number, now = Date.now()): Promise<number> {
    return this.#pause(untilMs, now);
  }

  #pause(untilMs: number, now: number): number {
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
   * One page for a reader (see PageReply): from a fresh copy; from another reader's fetch of the same
   * request under way; or requested now, in the site's turn (waited for here), with the copy's
   * validators, and kept in the copy when it is the same for every reader. `hooks` are the read's,
   * asked only when the site redirects. `now` is a test's clock: it stands still through the call
   * (the gate keeps its own otherwise).
   */
  async request(ask: PageRequest, hooks: ReaderHooks = {}, now?: number): Promise<PageReply> {
    const clock = () => now ?? Date.now();
    const key = sharedKey(ask.url, ask.page);
    const freshMs = Math.min(Math.max(0, ask.freshMs), MAX_FRESH_MS);
    for (let asked = 0; asked < MAX_SHARED_LOOKUPS; asked++) {
      const copy = this.#pages.get(key);
      if (copy && isFresh(copy, freshMs, clock(), ask.reader)) return { kind: 'page', page: answerFrom(copy, ask.url, ask.caller), shared: true };
      const under = this.#fetching.get(key);
      if (under && under.expires > clock()) {
        const outcome = await this.#waitFor(key, under, clock);
        if (outcome.kind === 'failure') return { kind: 'page', page: outcome.page, shared: true, ...(outcome.pause ? { pause: outcome.pause } : {}) };
        // Answered from the copy it kept, whatever the waiter's freshness (it was fetched after the waiter asked).
        if (outcome.kind === 'copy') return { kind: 'page', page: answerFrom(outcome.copy, ask.url, ask.caller), shared: true };
        continue;
      }
      const reply = await this.#fetch(key, ask, hooks, copy, clock);
      if (reply) return reply;
    }
    return { kind: 'page', page: { kind: 'failed', url: ask.url, reason: `other reads kept requesting this page for us and never answered (asked ${MAX_SHARED_LOOKUPS} times)` }, shared: false };
  }

  /**
   * Fetches `ask` for the copy in the site's turn, the readers asking meanwhile waiting on it; the
   * reader's answer, or undefined when a 304 confirmed a copy evicted meanwhile (ask again).
   */
  async #fetch(key: string, ask: PageRequest, hooks: ReaderHooks, copy: SharedCopy | undefined, clock: () => number): Promise<PageReply | undefined> {
    const fetching = newFetching(clock() + TICKET_MS);
    this.#fetching.set(key, fetching);
    let outcome: Outcome = { kind: 'none' };
    try {
      const turn = await this.#turn(ask.turn, clock);
      // Not requested: the readers waiting on it ask again, and are told of the pause too.
      if (turn.lease === null) return { kind: 'paused', retryInMs: turn.retryInMs, pausedUntil: turn.pausedUntil };
      let page: SitePage;
      try {
        // The copy's validators, never the caller's own: what the site is asked is the same for every reader.
        const conditional = validatorsOf(copy);
        page = await fetchSitePage(ask.url, { ...ask.page, ...hooks, ...(conditional ? { conditional } : {}) });
      } finally {
        // The next gap counts from this answer too: an answer's time never lies before its request reached the site.
        this.#release(turn.lease, clock());
      }
      const at = clock();
      if (page.kind === 'failed') {
        const pause = page.status === 429 || page.status === 503 ? this.#pushback(page, at) : undefined;
        outcome = { kind: 'failure', page, ...(pause ? { pause } : {}) };
        return { kind: 'page', page, shared: false, ...(pause ? { pause } : {}) };
      }
      const kept = await this.#keep(key, ask, page, copy, at);
      if (kept === undefined) return undefined;
      if (kept.copy) outcome = { kind: 'copy', copy: kept.copy };
      return { kind: 'page', page: kept.answer, shared: false };
    } finally {
      this.#finish(key, fetching, outcome);
    }
  }

  /** The site refused (429/503): it is paused for the Retry-After it asked (capped), for every reader. */
  #pushback(page: Extract<SitePage, { kind: 'failed' }>, now: number): SitePause {
    const retryAfterMs = pushbackMs(page.retryAfter, now);
    return { retryAfterMs, until: this.#pause(now + retryAfterMs, now) };
  }

  /**
   * Keeps an answer the same for every reader in the copy (a 304 confirms `old`, the copy whose
   * validators were sent) and returns the answer as the reader is to take it (its own validators
   * compared with the copy, as for everyone), with the copy kept when it answers the readers waiting
   * too; undefined when the 304 confirmed a copy that is gone meanwhile (evicted).
   */
  async #keep(key: string, ask: PageRequest, page: Exclude<SitePage, { kind: 'failed' }>, old: SharedCopy | undefined, now: number): Promise<{ answer: SitePage; copy?: SharedCopy } | undefined> {
    if (page.kind === 'not-modified') {
      // Only this fetch writes the key meanwhile: the copy is `old`, if it is still kept.
      if (!old || !this.#pages.touch(key, now, ask.reader)) return undefined;
      const { madeBy: _before, ...confirmed } = old;
      const copy: SharedCopy = { ...confirmed, fetchedAt: now, ...(ask.reader === undefined ? {} : { madeBy: ask.reader }) };
      return { answer: answerFrom(copy, ask.url, ask.caller), copy };
    }
    const copy = copyOf(page, now, ask.reader);
    if (copy) {
      this.#pages.put(key, copy);
      await this.#armCleanup();
      return { answer: answerFrom(copy, ask.url, ask.caller), copy };
    }
    // The site answered with a body too large to keep: the old copy is not the page any more.
    if (page.kind === 'page') this.#pages.delete(key);
    return { answer: page };
  }

  /**
   * A start in the site's turn, waited for here: a lease once its wait is over (the gap), or, while
   * the site is paused, the pause (nothing is waited for: the reader decides by its deadline). With
   * every slot taken, it waits for one to be released (or to expire).
   */
  async #turn(ask: TurnAsk, clock: () => number): Promise<{ lease: string } | { lease: null; retryInMs: number; pausedUntil: number }> {
    for (;;) {
      const answer = this.#acquire(ask.gapMs, ask.maxInFlight, clock());
      if (answer.lease !== null) {
        await sleep(answer.waitMs);
        return { lease: answer.lease };
      }
      if (answer.pausedUntil !== undefined) return { lease: null, retryInMs: answer.retryInMs, pausedUntil: answer.pausedUntil };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, answer.retryInMs);
        this.#slotWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
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

  /** A waiter: what the fetch under way left, or `none` once it is given up on (TICKET_MS). */
  async #waitFor(key: string, under: Fetching, clock: () => number): Promise<Outcome> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const givenUp = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'none' }), Math.max(0, under.expires - clock()));
    });
    const outcome = await Promise.race([under.done, givenUp]);
    clearTimeout(timer);
    // Given up on: the next reader fetches (the late answer of the one given up on still keeps its copy).
    if (this.#fetching.get(key) === under && outcome.kind === 'none') this.#fetching.delete(key);
    return outcome;
  }

  /** Ends the fetch under way for `key` if it is still `fetching`, waking its waiters. */
  #finish(key: string, fetching: Fetching, outcome: Outcome): void {
    if (this.#fetching.get(key) === fetching) this.#fetching.delete(key);
    fetching.finish(outcome);
  }

  /** The alarm keeps time by the object's own clock (a caller's `now` is for the turns and the freshness). */
  async #armCleanup(): Promise<void> {
    if (this.#cleanupArmed) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + KEEP_MS);
    this.#cleanupArmed = true;
  }
}

function newFetching(expires: number): Fetching {
  let finish: (outcome: Outcome) => void = () => {};
  const done = new Promise<Outcome>((resolve) => {
    finish = resolve;
  });
  return { expires, done, finish };
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
