import type { GateAnswer, SharedRequest, SiteHostGate, TurnAsk } from '../../durable-objects/site-host-gate.ts';
import { readConfig } from '../../ground/config.ts';
import { fetchSitePage, type SitePage, type SitePageOptions } from '../../sites/fetch-page.ts';
import { pushbackMs } from '../../sites/retry-after.ts';
import { botPageUrl, siteReaderUserAgent } from '../../sites/user-agent.ts';
import { sharedKey } from '../../sites/shared-page.ts';
import { sleep } from './state.ts';

/** At most this many requests to one site at once. */
export const SITE_REQUESTS_IN_FLIGHT = 2;
/** A page the site refuses with 429 or 503 is asked again at most this many times, each after the site's pause. */
export const MAX_PUSHBACK_RETRIES = 2;
/**
 * How many times one request asks the shared copy before it gives up waiting on other readers: each
 * wait is at most SHARE_WAIT_MS (10 s), and a reader that died is replaced after TICKET_MS (150 s).
 */
const MAX_SHARED_LOOKUPS = 24;

/** The site's pushback that ended a request: how long it asked us to wait (capped), and when to retry (ISO). */
export interface Pushback {
  retryAfterMs: number;
  until: string;
}

/**
 * What a request gave: a SitePage, with `shared` when it was answered from the site's shared copy
 * (no request of this reader reached the site; its organization still counts the page as read),
 * and, on a `failed` page the site refused (429/503) more often than we retry or for longer than
 * the caller could wait, `pushback`.
 */
export type ClientPage = SitePage & { shared?: true; pushback?: Pushback; refusals?: number };

/** The time a client keeps: the system's, or a test's. */
export interface SiteClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface SiteClientOptions {
  /** The site's SiteHostGate. */
  gate: DurableObjectStub<SiteHostGate>;
  /** What every page request of the read shares. */
  page: Pick<SitePageOptions, 'originOverrides' | 'fetch' | 'timeoutMs'>;
  /** The least time between two request starts (ms). */
  gapMs: number;
  /** A shared copy younger than this answers without a request (SITE_READ_SHARED_FRESH_MS). */
  freshMs: number;
  /** A test's clock: passed to the gate too, so a test can step past a pause or a freshness window. */
  clock?: SiteClock;
  /** Who reads: its organization's id (a read never takes a shared copy its own organization made). */
  reader?: string;
  /** The User-Agent header (siteReaderUserAgent). */
  userAgent: string;
}

/** What a caller may bound a request by. */
export interface RequestLimits {
  /**
   * When the caller must have its answer (ms since the epoch: a slice's hand-over time): a pause of
   * the site that would outlast it is not waited for; the request ends with the pushback result.
   */
  deadline?: number;
}

/**
 * What every request of one read shares: where it goes and how it is paced. Each request first asks
 * the site's SiteHostGate for its shared copy; when it must reach the site, it takes a start from
 * the gate (at most SITE_REQUESTS_IN_FLIGHT at once, and `gapMs` after the previous start and the
 * previous answer, across every step and slice of every read of the site, whichever
 * organization's), gives it back when its answer is in, and hands the answer to the copy.
 *
 * A 429 or 503 pauses the whole site in its gate for the Retry-After asked (pushbackMs: at most
 * MAX_PUSHBACK_MS, DEFAULT_PUSHBACK_MS when none is named), then the page is asked again, at most
 * MAX_PUSHBACK_RETRIES times; past that, or when the pause would outlast the caller's deadline, the
 * refused page comes back with `pushback`.
 */
export class SiteClient {
  readonly #options: SiteClientOptions;

  constructor(
    readonly domain: string,
    options: SiteClientOptions,
  ) {
    this.#options = options;
  }

  /**
   * Requests `url` in its turn (or from the shared copy). When the answer is in, the gap runs from
   * then too: a Worker's clock stands still while it computes, so the start a turn claimed may lie a
   * little before the request really left; an answer's time never lies before its request reached the site.
   */
  async request(url: string, extra: Partial<SitePageOptions> = {}, limits: RequestLimits = {}): Promise<ClientPage> {
    for (let refusals = 1; ; refusals++) {
      const page = await this.#shared(url, extra, limits);
      const refused = refusals > 1 ? { refusals: refusals - 1 } : {};
      if (page.kind !== 'failed' || page.pushback || (page.status !== 429 && page.status !== 503)) return { ...page, ...refused };
      const now = this.#now();
      const waitMs = pushbackMs(page.retryAfter, now);
      const until = await this.#gate.pause(now + waitMs, this.#clockNow());
      if (refusals > MAX_PUSHBACK_RETRIES || (limits.deadline !== undefined && until > limits.deadline)) {
        return { ...page, refusals, pushback: { retryAfterMs: waitMs, until: new Date(until).toISOString() } };
      }
      // The next turn starts after the pause: the gate hands out none before it.
    }
  }

  get #gate(): DurableObjectStub<SiteHostGate> {
    return this.#options.gate;
  }

  /** One request through the shared copy: answered from it, waited for, or fetched and handed in. */
  async #shared(url: string, extra: Partial<SitePageOptions>, limits: RequestLimits): Promise<ClientPage> {
    const request: SharedRequest = {
      key: sharedKey(url, extra),
      url,
      freshMs: this.#options.freshMs,
      ...(this.#options.reader === undefined ? {} : { reader: this.#options.reader }),
      ...(extra.conditional ? { caller: extra.conditional } : {}),
    };
    for (let asked = 0; asked < MAX_SHARED_LOOKUPS; asked++) {
      // A reader told to fetch gets its first answer for a turn with it: one round trip, not two.
      const found = await this.#gate.lookup(request, this.#clockNow(), this.#turnAsk);
      if (found.kind === 'answer') return { ...found.page, shared: true };
      if (found.kind === 'wait') continue;
      let turn: Turn | undefined;
      let page: ClientPage;
      try {
        turn = await this.#takeTurn(limits, found.turn);
        // The copy's validators, never the caller's own: what the site is asked is the same for every reader.
        page = turn.kind === 'paused' ? paused(url, turn.until, this.#now()) : await this.#fetch(url, { ...extra, conditional: found.conditional });
      } catch (error) {
        if (turn?.kind === 'lease') await this.#release(turn.lease);
        await this.#gate.abandon(found.ticket, request.key);
        throw error;
      }
      if (turn.kind === 'paused') {
        // Not requested (the site is paused past the deadline): another reader may still wait longer.
        await this.#gate.abandon(found.ticket, request.key);
        return page;
      }
      // The turn ends with the answer handed in: release and settle in one round trip.
      const answer = await this.#gate.settleTurn(found.ticket, request, page, turn.lease, this.#clockNow());
      if (answer === 'as-fetched') return page;
      if (answer !== undefined) return answer;
    }
    return { kind: 'failed', url, reason: `other reads kept requesting this page for us and never answered (asked ${MAX_SHARED_LOOKUPS} times)` };
  }

  /** One request to the site, in a turn already taken. */
  #fetch(url: string, options: Partial<SitePageOptions>): Promise<SitePage> {
    return fetchSitePage(url, { domain: this.domain, userAgent: this.#options.userAgent, ...this.#options.page, ...options });
  }

  /**
   * Runs `work` in the site's turn, as one request: a start from the gate (at most
   * SITE_REQUESTS_IN_FLIGHT at once, the gap after the previous start and answer, none during the
   * site's pause), given back when `work` ends. A page rendered in a browser takes its turn this way.
   * `paused` when the site's pause outlasts the caller's deadline (`work` is not run).
   */
  async inTurn<T>(work: () => Promise<T>, limits: RequestLimits = {}): Promise<{ kind: 'done'; value: T } | { kind: 'paused'; until: number }> {
    const turn = await this.#takeTurn(limits);
    if (turn.kind === 'paused') return turn;
    try {
      return { kind: 'done', value: await work() };
    } finally {
      await this.#release(turn.lease);
    }
  }

  /**
   * A start from the gate (`first`: an answer the gate already gave, with a lookup), waited for: a
   * lease once its wait is over, or `paused` when the site's pause outlasts the caller's deadline.
   */
  async #takeTurn(limits: RequestLimits, first?: GateAnswer): Promise<Turn> {
    let answer: GateAnswer = first ?? (await this.#gate.acquire(this.#options.gapMs, SITE_REQUESTS_IN_FLIGHT, this.#clockNow()));
    while (answer.lease === null) {
      if (answer.pausedUntil !== undefined && limits.deadline !== undefined && answer.pausedUntil > limits.deadline) return { kind: 'paused', until: answer.pausedUntil };
      await this.#sleep(answer.retryInMs);
      answer = await this.#gate.acquire(this.#options.gapMs, SITE_REQUESTS_IN_FLIGHT, this.#clockNow());
    }
    await this.#sleep(answer.waitMs);
    return { kind: 'lease', lease: answer.lease };
  }

  /** Gives a turn back: the next start waits the gap after this answer too; a lease not given back frees itself after LEASE_MS. */
  async #release(lease: string): Promise<void> {
    await this.#gate.release(lease, this.#clockNow()).catch(() => {});
  }

  get #turnAsk(): TurnAsk {
    return { gapMs: this.#options.gapMs, maxInFlight: SITE_REQUESTS_IN_FLIGHT };
  }

  /** The User-Agent header of this read's requests (a browser it renders with sends it too). */
  get userAgent(): string {
    return this.#options.userAgent;
  }

  /** Host -> loopback origin (development and tests), for a browser to load a page from. */
  get originOverrides(): ReadonlyMap<string, string> | undefined {
    return this.#options.page.originOverrides;
  }

  #now(): number {
    return this.#options.clock?.now() ?? Date.now();
  }

  /** The test's clock for the gate, or undefined: the gate keeps its own. */
  #clockNow(): number | undefined {
    return this.#options.clock?.now();
  }

  #sleep(ms: number): Promise<void> {
    return this.#options.clock ? this.#options.clock.sleep(ms) : sleep(ms);
  }
}

/** A turn taken: its lease, or the site's pause that outlasts the caller's deadline. */
type Turn = { kind: 'lease'; lease: string } | { kind: 'paused'; until: number };

/** A page not requested because the site asked for a pause that lasts past the caller's deadline. */
function paused(url: string, until: number, now: number): ClientPage {
  const at = new Date(until).toISOString();
  return {
    kind: 'failed',
    url,
    reason: `not requested: the site asked for a pause (HTTP 429 or 503) until ${at}`,
    pushback: { retryAfterMs: Math.max(0, until - now), until: at },
  };
}

/**
 * The client of a read of `domain`, paced by its gate with the read's configuration; `overrides`
 * (tests) give another gate, clock or freshness.
 */
export function clientFor(
  env: Env,
  domain: string,
  crawlDelaySeconds: number | undefined,
  overrides: Partial<Pick<SiteClientOptions, 'gate' | 'clock' | 'freshMs' | 'reader'>> & { origin?: string } = {},
): SiteClient {
  const config = readConfig(env);
  const { origin, ...rest } = overrides;
  return new SiteClient(domain, {
    userAgent: siteReaderUserAgent(botPageUrl(config, origin)),
    gate: env.SITE_GATES.get(env.SITE_GATES.idFromName(domain)),
    page: { originOverrides: config.SITE_ORIGIN_OVERRIDES, timeoutMs: config.SITE_READ_PAGE_TIMEOUT_MS },
    gapMs: Math.max(config.SITE_READ_MIN_DELAY_MS, (crawlDelaySeconds ?? 0) * 1000),
    freshMs: config.SITE_READ_SHARED_FRESH_MS,
    ...rest,
  });
}
