import { robotsPolicyFor, type RobotsPolicy, type RobotsVerdict } from '../robots.ts';
import type { SitePage, SitePageOptions } from '../fetch-page.ts';
import type { RobotsRecord } from './state.ts';

/**
 * The robots.txt rules of a whole site: one policy per host (RFC 9309: each scheme and host has its
 * own robots.txt), the apex's and `www.`'s, each read by the discover step. A URL is checked
 * against the policy of the host it is on, so a site that redirects its apex to `www.` is read by
 * `www.`'s rules.
 *
 * Decision: an http:// URL of a host is checked against that host's https robots.txt. Sites answer
 * http with a redirect to https, and the redirect's target is checked again where it lands; reading
 * a second robots.txt per host only to follow that redirect would double the read's robots requests.
 */

/** The robots.txt of each host read, by origin (`https://www.globex.com`), the apex's first. */
export type HostRobots = Record<string, RobotsRecord>;

export interface SitePolicy {
  /** Each host's policy, in the order read (the apex first). */
  readonly hosts: readonly { origin: string; policy: RobotsPolicy }[];
  /** The longest Crawl-delay any host asks for (the gate paces the whole site). */
  readonly crawlDelaySeconds: number | undefined;
  /** Every host's sitemaps, without repeats, at most MAX_SITEMAPS in all. */
  readonly sitemaps: readonly string[];
  allows(url: string): boolean;
  check(url: string): RobotsVerdict;
}

/** Sitemaps kept from all hosts together (each robots.txt keeps at most 50 of its own). */
const MAX_SITE_SITEMAPS = 50;

/** The https origin of a URL's host, for the lookup of its policy; undefined when not http(s). */
function httpsOrigin(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (parsed.protocol === 'http:') parsed.protocol = 'https:';
  return parsed.origin;
}

export function sitePolicyOf(records: HostRobots): SitePolicy {
  const hosts = Object.values(records).map((record) => {
    const policy = robotsPolicyFor(record.url, record.status, record.text);
    return { origin: policy.origin, policy };
  });
  const byOrigin = new Map(hosts.map((host) => [host.origin, host.policy]));
  const delays = hosts.map((host) => host.policy.crawlDelaySeconds).filter((delay): delay is number => delay !== undefined);
  const sitemaps = [...new Set(hosts.flatMap((host) => host.policy.sitemaps))].slice(0, MAX_SITE_SITEMAPS);
  const check = (url: string): RobotsVerdict => {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    const exact = parsed && byOrigin.get(parsed.origin);
    if (exact) return exact.check(url);
    // The https policy answers for an http URL of its host: it is asked with the https form.
    const origin = parsed?.protocol === 'http:' ? httpsOrigin(url) : undefined;
    const policy = origin === undefined ? undefined : byOrigin.get(origin);
    if (policy === undefined) return { allowed: false, reason: 'other-origin' };
    return policy.check(url.replace(/^http:/i, 'https:'));
  };
  return {
    hosts,
    crawlDelaySeconds: delays.length ? Math.max(...delays) : undefined,
    sitemaps,
    allows: (url) => check(url).allowed,
    check,
  };
}

/** robots.txt bytes read (the parser keeps the first 500 KiB, RFC 9309's floor). */
const ROBOTS_MAX_BYTES = 2 * 1024 * 1024;

/** What robots.txt requests of a read may go through: the site's paced client (site-client.ts). */
export interface RobotsFetcher {
  request(url: string, extra: { file: { maxBytes: number } }): Promise<SitePage>;
}

/**
 * The robots.txt rules of the site's hosts as a read keeps them in its scratch space (`robots`):
 * the hosts read so far, and the read of another host's when a URL first needs it. A redirect of
 * robots.txt is followed (up to 5 hops, on the site's hosts): when the apex's redirects to `www.`'s,
 * that one file is recorded for both.
 */
export class SiteRobots {
  #records: HostRobots;
  #policy: SitePolicy;

  constructor(
    records: HostRobots,
    private readonly save: (records: HostRobots) => void,
  ) {
    this.#records = records;
    this.#policy = sitePolicyOf(records);
  }

  /** What a read kept in scratch (a run from before sites had hosts kept one RobotsRecord: the apex's). */
  static fromScratch(value: HostRobots | RobotsRecord | undefined, save: (records: HostRobots) => void): SiteRobots {
    if (value === undefined) return new SiteRobots({}, save);
    if (typeof (value as RobotsRecord).url === 'string' && typeof (value as RobotsRecord).status === 'number') {
      const record = value as RobotsRecord;
      return new SiteRobots({ [new URL(record.url).origin]: record }, save);
    }
    return new SiteRobots(value as HostRobots, save);
  }

  get policy(): SitePolicy {
    return this.#policy;
  }

  get records(): HostRobots {
    return this.#records;
  }

  /** Whether the robots.txt of `url`'s host is read (an http URL counts as its host's https). */
  knows(url: string): boolean {
    const origin = httpsOrigin(url);
    return origin !== undefined && this.#records[origin] !== undefined;
  }

  /**
   * For a queue: a URL of a host not read yet is let through (checked when it is requested); a
   * known host's rules decide.
   */
  allowsOrUnknown(url: string): boolean {
    // `other-origin` from the site's policy: no host of it has this URL's origin, so it is not known.
    const verdict = this.#policy.check(url);
    return verdict.allowed || verdict.reason === 'other-origin';
  }

  /** For a redirect being followed: `unknown` until the host's robots.txt is read (fetch-page.ts). */
  allowsRedirect(url: string): boolean | 'unknown' {
    return this.knows(url) ? this.#policy.allows(url) : 'unknown';
  }

  /** Reads the robots.txt of `url`'s host unless it is read already; the records are saved. */
  async load(url: string, fetcher: RobotsFetcher): Promise<RobotsRecord | undefined> {
    const origin = httpsOrigin(url);
    if (origin === undefined) return undefined;
    const known = this.#records[origin];
    if (known) return known;
    const robotsUrl = `${origin}/robots.txt`;
    const page = await fetcher.request(robotsUrl, { file: { maxBytes: ROBOTS_MAX_BYTES } });
    const record = robotsRecord(robotsUrl, page);
    const records: HostRobots = { ...this.#records, [origin]: record };
    // A robots.txt that redirected to another host's is that host's robots.txt too.
    if (page.kind === 'page') {
      const landed = httpsOrigin(page.url);
      if (landed !== undefined && landed !== origin && records[landed] === undefined && new URL(page.url).pathname === '/robots.txt') {
        records[landed] = { ...record, url: `${landed}/robots.txt` };
      }
    }
    this.#records = records;
    this.#policy = sitePolicyOf(records);
    this.save(records);
    return record;
  }
}

/** One fetch of robots.txt as RFC 9309 reads it (robots.ts's robotsPolicyFor decides what it means). */
export function robotsRecord(url: string, page: SitePage): RobotsRecord {
  switch (page.kind) {
    case 'page':
      return { url, status: 200, text: new TextDecoder().decode(page.body) };
    case 'gone':
      return { url, status: page.status, text: null };
    case 'skipped':
    case 'redirect':
      // A redirect off the site (or to a file type we do not read): as if there were no robots.txt.
      return { url, status: 404, text: null };
    case 'not-modified':
      return { url, status: 304, text: null };
    case 'failed':
      // Redirects that never reach a robots.txt (more than 5, or a loop): unavailable (RFC 9309 2.3.1.2).
      if (page.redirectsExhausted) return { url, status: 404, text: null };
      return page.status === undefined ? { url, status: 0, text: null, error: `robots.txt ${page.reason}` } : { url, status: page.status, text: null };
  }
}

/** The paced requests a read makes (site-client.ts): a page or a file, with fetch-page's options. */
export interface SiteRequester extends RobotsFetcher {
  request(url: string, extra: Partial<SitePageOptions>, limits?: { deadline?: number }): Promise<SitePage & { refusals?: number; pushback?: { until: string } }>;
}

/**
 * Requests `url` (whose host's robots.txt allows it; the caller checked) and follows its redirects,
 * each hop checked against the robots.txt of the host it lands on: a hop to a host not read yet is
 * returned by fetch-page unfollowed, that host's robots.txt is read (this request's slot given back
 * first), and the request goes on from there. `claim` (a read's frontier) may refuse a hop the read
 * requests anyway.
 */
export async function requestFollowingRobots(
  client: SiteRequester,
  robots: SiteRobots,
  url: string,
  options: Partial<SitePageOptions> = {},
  limits: { deadline?: number } = {},
): Promise<SitePage & { refusals?: number; pushback?: { until: string } }> {
  const allows = (target: string) => robots.allowsRedirect(target);
  let page = await client.request(url, { ...options, allows }, limits);
  while (page.kind === 'redirect') {
    const { location } = page;
    if (!robots.knows(location)) await robots.load(location, client);
    if (!robots.policy.allows(location)) {
      return { kind: 'skipped', url: page.url, reason: `the redirect to ${location} is disallowed by the robots.txt of ${new URL(location).host}` };
    }
    if (options.claim && !options.claim(location)) {
      return { kind: 'skipped', url: page.url, reason: `the redirect leads to ${location}, which this read requests anyway` };
    }
    const { conditional: _sentOnlyFirst, ...rest } = options;
    page = await client.request(location, { ...rest, allows, redirectsBefore: page.redirects }, limits);
  }
  return page;
}
