import type { GateAnswer, PageRequest, ReaderHooks, SiteHostGate } from '../site-host-gate.ts';
import { readConfig } from '../../ground/config.ts';
import { gapMs, MAX_PUSHBACK_RETRIES, SITE_REQUESTS_IN_FLIGHT } from '../politeness.ts';
import type { SitePage, SitePageOptions } from '../fetch-page.ts';
import { botPageUrl, siteReaderUserAgent } from '../user-agent.ts';
import { sleep } from './state.ts';


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
  /** What every page request of the read shares (the gate requests with it). */
  page: Pick<SitePageOptions, 'originOverrides' | 'timeoutMs' | 'hosts'>;
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
 * What every request of one read shares: where it goes and how it is paced. Each request is one call
 * to the site's SiteHostGate, which answers it from its shared copy or requests it in the site's turn
 * (at most SITE_REQUESTS_IN_FLIGHT at once, and `gapMs` after the previous start and the previous
 * answer, across every step and slice of every read of the site, whichever organization's) with this
 * read's user agent, and keeps the answer for the copy.
 *
 * A 429 or 503 pauses the whole site in its gate for the Retry-After asked (pushbackMs: at most
 * MAX_PUSHBACK_MS, DEFAULT_PUSHBACK_MS when none is named), then the page is asked again, at most
 * MAX_PUSHBACK_RETRIES times; past that, or when the pause would outlast the caller's deadline, the
 * refused page comes back with `pushback`. The client waits out a pause itself (the gate answers
 * `paused` at once), so that a caller's deadline and a test's clock decide.
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
   * Requests `url` in the site's turn (or from the shared copy). `extra`'s `conditional` is the
   * caller's stored copy: compared with the shared copy, never sent; `allows` and `claim` are asked
   * by the gate, across objects, when the site redirects (what `claim` writes to the read's storage
   * is stored before its answer leaves, as any message of a Durable Object waits for its writes, so
   * before the redirect is followed).
   */
  async request(url: string, extra: Partial<SitePageOptions> = {}, limits: RequestLimits = {}): Promise<ClientPage> {
    const { conditional, allows, claim, file, documents, redirectsBefore } = extra;
    const ask: PageRequest = {
      url,
      page: {
        domain: this.domain,
        userAgent: this.#options.userAgent,
        ...this.#options.page,
        ...(file === undefined ? {} : { file }),
        ...(documents === undefined ? {} : { documents }),
        ...(redirectsBefore === undefined ? {} : { redirectsBefore }),
      },
      freshMs: this.#options.freshMs,
      ...(this.#options.reader === undefined ? {} : { reader: this.#options.reader }),
      ...(conditional ? { caller: conditional } : {}),
      turn: { gapMs: this.#options.gapMs, maxInFlight: SITE_REQUESTS_IN_FLIGHT },
    };
    const hooks: ReaderHooks = { ...(allows ? { allows } : {}), ...(claim ? { claim } : {}) };
    for (let refusals = 0; ; ) {
      const reply = await this.#gate.request(ask, hooks, this.#clockNow());
      const refused = refusals > 0 ? { refusals } : {};
      if (reply.kind === 'paused') {
        if (limits.deadline !== undefined && reply.pausedUntil > limits.deadline) return { ...paused(url, reply.pausedUntil, this.#now()), ...refused };
        await this.#sleep(reply.retryInMs);
        continue;
      }
      const page: ClientPage = reply.shared ? { ...reply.page, shared: true } : reply.page;
      if (reply.pause === undefined) return { ...page, ...refused };
      refusals += 1;
      const { retryAfterMs, until } = reply.pause;
      if (refusals > MAX_PUSHBACK_RETRIES || (limits.deadline !== undefined && until > limits.deadline)) {
        return { ...page, refusals, pushback: { retryAfterMs, until: new Date(until).toISOString() } };
      }
      // Asked again after the pause: the gate starts nothing before it.
    }
  }

  get #gate(): DurableObjectStub<SiteHostGate> {
    return this.#options.gate;
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

  /** A start from the gate, waited for: a lease once its wait is over, or `paused` when the site's pause outlasts the caller's deadline. */
  async #takeTurn(limits: RequestLimits): Promise<Turn> {
    let answer: GateAnswer = await this.#gate.acquire(this.#options.gapMs, SITE_REQUESTS_IN_FLIGHT, this.#clockNow());
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
 * The client of a read of `domain` (and of the other `hosts` the read names), paced by its gate
 * with the read's configuration; `overrides` (tests) give another gate, clock or freshness.
 */
export function clientFor(
  env: Env,
  domain: string,
  crawlDelaySeconds: number | undefined,
  overrides: Partial<Pick<SiteClientOptions, 'gate' | 'clock' | 'freshMs' | 'reader'>> & { origin?: string; hosts?: readonly string[] } = {},
): SiteClient {
  const config = readConfig(env);
  const { origin, hosts, ...rest } = overrides;
  return new SiteClient(domain, {
    userAgent: siteReaderUserAgent(botPageUrl(config, origin)),
    gate: env.SITE_GATES.get(env.SITE_GATES.idFromName(domain)),
    page: { originOverrides: config.SITE_ORIGIN_OVERRIDES, timeoutMs: config.SITE_READ_PAGE_TIMEOUT_MS, ...(hosts?.length ? { hosts } : {}) },
    gapMs: gapMs(config.SITE_READ_MIN_DELAY_MS, crawlDelaySeconds),
    freshMs: config.SITE_READ_SHARED_FRESH_MS,
    ...rest,
  });
}
