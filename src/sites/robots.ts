import robotsParser from 'robots-parser';
import { MAX_URL_LENGTH } from './frontier.ts';
import { honouredCrawlDelay, MAX_CRAWL_DELAY_SECONDS } from './politeness.ts';

/**
 * The robots.txt policy of one site read (RFC 9309, the Robots Exclusion Protocol), as pure
 * functions: the run object fetches `/robots.txt`, hands the outcome to `robotsPolicyFor`, and asks
 * the policy before every request (a disallowed URL is never requested). Nothing here throws on
 * what a site sends: every bound that bites is reported as data on the policy.
 *
 * Parsing and matching are `robots-parser`'s (3.x): longest match wins (length of the percent-encoded pattern),
 * Allow wins a tie, `*` matches any run of characters and a final `$` anchors the end, the group
 * is picked by product token, case-insensitively, with `*` as the fallback, and groups naming the
 * same agent are merged. Around it this module adds the bounds and the RFC's fetch outcomes:
 * - only the first 500 KiB (512,000 bytes) are parsed: RFC 9309 (2.5) lets a crawler set a parsing
 *   limit but says it MUST be at least 500 KiB, so this is the least allowed; a line cut at that
 *   bound is dropped, not parsed half;
 * - `/robots.txt` itself is always allowed (RFC 9309, 2.2.2);
 * - runs of `*` in a rule are collapsed (same meaning, `**` = `*`) and the matching work of one
 *   check is bounded (`MAX_MATCH_STEPS`): a URL whose check would cost more is refused, reported
 *   `too-complex`, never matched for seconds;
 * - Crawl-delay (not in the RFC; read from the chosen group only) is honoured as politeness.ts says
 *   (capped at 60 s; a non-numeric, negative or zero value is ignored);
 * - sitemaps: absolute http(s) URLs only, at most 2,048 characters each, at most 50, deduplicated.
 */

/** The product token that picks our group in a robots.txt (`User-agent: ReconBot`). */
export const SITE_READER_PRODUCT_TOKEN = 'ReconBot';

/** The User-Agent header of every request of a site read; it starts with the product token. */
export const SITE_READER_USER_AGENT = `${SITE_READER_PRODUCT_TOKEN}/1.0 (+https://recon.example/bot; reads public company sites for a go-to-market research service)`;

/** Bytes of robots.txt parsed: 500 KiB, the smallest parsing limit RFC 9309 (2.5) allows. */
export const MAX_ROBOTS_BYTES = 500 * 1024;
/** Sitemaps kept from one robots.txt (each at most MAX_URL_LENGTH characters, as every URL of a read). */
export const MAX_SITEMAPS = 50;
/**
 * An upper bound on the character comparisons of one check. A wildcard rule of length P costs at
 * most P x (path length + 1) steps in the parser's matcher, so a hostile file of 500 KiB of `a*a*`
 * against a 2,000-character path costs about 10^9 steps (near a second of CPU, measured); at this
 * bound a check costs a few milliseconds at most. A normal robots.txt stays far below it for any path.
 */
export const MAX_MATCH_STEPS = 20_000_000;

/** What a policy was made from. */
export type RobotsSource =
  | 'parsed' // a 2xx robots.txt, parsed
  | 'unavailable' // 4xx (or too many redirects): everything allowed (RFC 9309, 2.3.1.3)
  | 'unreachable'; // 5xx, 429, a network error or an unreadable body: everything disallowed (2.3.1.4)

/** Why one URL is or is not allowed. */
export type RobotsVerdictReason =
  | 'allowed' // no rule, or an Allow rule, matched (or robots.txt is unavailable)
  | 'disallowed' // a Disallow rule matched
  | 'unreachable' // robots.txt could not be read: complete disallow for this read
  | 'other-origin' // the URL is not on this policy's scheme, host and port
  | 'invalid-url'
  | 'url-too-long' // over MAX_URL_LENGTH
  | 'too-complex'; // the check would pass MAX_MATCH_STEPS

export interface RobotsVerdict {
  allowed: boolean;
  reason: RobotsVerdictReason;
}

export interface RobotsPolicy {
  /** The origin the policy covers (`https://example.com`); any other URL is not allowed. */
  readonly origin: string;
  readonly source: RobotsSource;
  /** Why the policy is what it is, in words, for the read's report (`robots.txt answered 503: ...`). */
  readonly reason: string;
  /** Seconds to wait between requests, from our group (else `*`); undefined when none is set. */
  readonly crawlDelaySeconds: number | undefined;
  /** Sitemap URLs listed, bounded as documented above. */
  readonly sitemaps: readonly string[];
  /** Bounds that bit while parsing, in words (empty when none did). */
  readonly notes: readonly string[];
  /** Whether the site read may request `url`. */
  allows(url: string): boolean;
  /** The same answer with its reason. */
  check(url: string): RobotsVerdict;
}

const ROBOTS_PATH = '/robots.txt';
const RULE_LINE = /^([ \t]*(?:dis)?allow[ \t]*:)([^\r\n]*)/gim;
const NON_ASCII = /[^\x00-\x7f]/g;
/**
 * A Disallow rule with a path, anywhere in the file (in a comment too: the test only has to be
 * sure when it finds none). A file without one refuses nothing (an empty Disallow allows all).
 */
const DISALLOW_WITH_PATH = /disallow\s*:\s*[^\s#]/i;

/** The origin of an http(s) URL, or undefined. */
function originOf(url: string): URL | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed : undefined;
}

/** The first MAX_ROBOTS_BYTES of `text` in UTF-8, ending at a line break when cut. */
function boundedText(text: string): { text: string; truncated: boolean } {
  // A UTF-16 code unit is at least one UTF-8 byte: up to this length nothing can be cut.
  if (text.length <= MAX_ROBOTS_BYTES / 3) return { text, truncated: false };
  const { read } = new TextEncoder().encodeInto(text.slice(0, MAX_ROBOTS_BYTES), new Uint8Array(MAX_ROBOTS_BYTES));
  if (read === text.length) return { text, truncated: false };
  const kept = text.slice(0, read);
  const lastBreak = Math.max(kept.lastIndexOf('\n'), kept.lastIndexOf('\r'));
  return { text: kept.slice(0, lastBreak + 1), truncated: true };
}

/** Rules with runs of `*` collapsed, and the summed length of the rules with a wildcard (their matching weight). */
function collapseWildcards(text: string): { text: string; wildcardWeight: number } {
  let wildcardWeight = 0;
  const collapsed = text.replace(RULE_LINE, (_line, key: string, value: string) => {
    const pattern = value.replace(/\*{2,}/g, '*');
    const uncommented = pattern.split('#', 1)[0] ?? '';
    // A non-ASCII character grows to up to nine characters once percent-encoded.
    if (uncommented.includes('*')) wildcardWeight += uncommented.length + 8 * (uncommented.match(NON_ASCII)?.length ?? 0);
    return key + pattern;
  });
  return { text: collapsed, wildcardWeight };
}

function boundedSitemaps(listed: readonly string[]): { sitemaps: string[]; dropped: number } {
  const sitemaps: string[] = [];
  for (const entry of listed) {
    if (sitemaps.length >= MAX_SITEMAPS) break;
    if (entry.length > MAX_URL_LENGTH) continue;
    const url = originOf(entry);
    if (url === undefined || url.href.length > MAX_URL_LENGTH || sitemaps.includes(url.href)) continue;
    sitemaps.push(url.href);
  }
  return { sitemaps, dropped: listed.length - sitemaps.length };
}

/** A URL's place against `origin`: its URL when on it and checkable, else the verdict refusing it. */
function locate(origin: URL, url: string): URL | RobotsVerdict {
  if (url.length > MAX_URL_LENGTH) return { allowed: false, reason: 'url-too-long' };
  const target = originOf(url);
  if (target === undefined) return { allowed: false, reason: 'invalid-url' };
  if (target.origin !== origin.origin) return { allowed: false, reason: 'other-origin' };
  return target;
}

const ALLOWED: RobotsVerdict = { allowed: true, reason: 'allowed' };

function policy(origin: URL, fields: Omit<RobotsPolicy, 'origin' | 'allows' | 'check'>, verdict: (target: URL) => RobotsVerdict): RobotsPolicy {
  const check = (url: string): RobotsVerdict => {
    const target = locate(origin, url);
    if (!(target instanceof URL)) return target;
    return target.pathname === ROBOTS_PATH ? ALLOWED : verdict(target);
  };
  return { origin: origin.origin, ...fields, check, allows: (url) => check(url).allowed };
}

/** A policy that refuses every URL: for a robots URL that is not http(s) (nothing can be read under it). */
function refuseAll(robotsUrl: string): RobotsPolicy {
  return {
    origin: '',
    source: 'unreachable',
    reason: `robots.txt URL is not an http(s) URL (${robotsUrl.slice(0, 200)}): nothing is read`,
    crawlDelaySeconds: undefined,
    sitemaps: [],
    notes: [],
    check: () => ({ allowed: false, reason: 'invalid-url' }),
    allows: () => false,
  };
}

/**
 * The policy of a robots.txt read with a 2xx answer. `robotsUrl` is where it was read
 * (`https://example.com/robots.txt`); it covers that scheme, host and port only.
 */
export function parseRobots(robotsUrl: string, text: string): RobotsPolicy {
  const origin = originOf(robotsUrl);
  if (origin === undefined) return refuseAll(robotsUrl);
  const bounded = boundedText(text);
  const { text: parsedText, wildcardWeight } = collapseWildcards(bounded.text);
  const robots = robotsParser(new URL(ROBOTS_PATH, origin).href, parsedText);
  const { sitemaps, dropped } = boundedSitemaps(robots.getSitemaps());
  const rawDelay = robots.getCrawlDelay(SITE_READER_PRODUCT_TOKEN);
  const crawlDelaySeconds = honouredCrawlDelay(rawDelay);
  const notes: string[] = [];
  if (bounded.truncated) notes.push(`robots.txt is over ${MAX_ROBOTS_BYTES} bytes: only the first ${MAX_ROBOTS_BYTES} were parsed`);
  if (dropped > 0) notes.push(`${dropped} sitemap entr${dropped === 1 ? 'y' : 'ies'} dropped (not an absolute http(s) URL, over ${MAX_URL_LENGTH} characters, repeated, or past the first ${MAX_SITEMAPS})`);
  if (rawDelay !== undefined && rawDelay !== crawlDelaySeconds) notes.push(`Crawl-delay ${String(rawDelay)} ${crawlDelaySeconds === undefined ? 'ignored' : `capped at ${MAX_CRAWL_DELAY_SECONDS} s`}`);
  const fields = { source: 'parsed' as const, reason: 'robots.txt read and parsed', crawlDelaySeconds, sitemaps, notes };
  // Many sites' robots.txt only names sitemaps or allows all: their URLs are not matched one by one.
  if (!DISALLOW_WITH_PATH.test(parsedText)) return policy(origin, fields, () => ALLOWED);
  return policy(origin, fields, (target) => {
    const pathLength = target.pathname.length + target.search.length;
    if (wildcardWeight * (pathLength + 1) > MAX_MATCH_STEPS) return { allowed: false, reason: 'too-complex' };
    // The parser answers undefined only for another origin, which `locate` has already refused.
    return robots.isAllowed(target.href, SITE_READER_PRODUCT_TOKEN) === false ? { allowed: false, reason: 'disallowed' } : ALLOWED;
  });
}

/** robots.txt could not be read (server error, network error, body unreadable or a decompression bomb): complete disallow. */
export function unreachableRobotsPolicy(robotsUrl: string, reason: string): RobotsPolicy {
  const origin = originOf(robotsUrl);
  if (origin === undefined) return refuseAll(robotsUrl);
  const fields = { source: 'unreachable' as const, reason: `${reason}: nothing on the site is read (RFC 9309, 2.3.1.4)`, crawlDelaySeconds: undefined, sitemaps: [], notes: [] };
  return policy(origin, fields, () => ({ allowed: false, reason: 'unreachable' }));
}

function unavailableRobotsPolicy(origin: URL, reason: string): RobotsPolicy {
  const fields = { source: 'unavailable' as const, reason: `${reason}: everything may be read (RFC 9309, 2.3.1.3)`, crawlDelaySeconds: undefined, sitemaps: [], notes: [] };
  return policy(origin, fields, () => ALLOWED);
}

/**
 * What one fetch of robots.txt means for the read (RFC 9309, 2.3.1), after redirects were followed:
 * - 2xx with a body: parsed (`parseRobots`); 2xx whose body could not be read (`text` null): unreachable;
 * - 3xx (redirects not resolved, e.g. more than five) and 4xx other than 429: unavailable, everything allowed;
 * - 429, 5xx, and status 0 (the network failed, nothing answered): unreachable, everything disallowed
 *   for this read. 429 counts as a server error, as Google's crawler treats it: the site asked us to slow down.
 * Never throws: a URL that is not http(s) gives a policy that refuses everything.
 */
export function robotsPolicyFor(robotsUrl: string, status: number, text: string | null): RobotsPolicy {
  const origin = originOf(robotsUrl);
  if (origin === undefined) return refuseAll(robotsUrl);
  if (status >= 200 && status < 300) {
    return text === null ? unreachableRobotsPolicy(robotsUrl, `robots.txt answered ${status} but its body could not be read`) : parseRobots(robotsUrl, text);
  }
  if (status === 429 || (status >= 500 && status < 600)) return unreachableRobotsPolicy(robotsUrl, `robots.txt answered ${status}`);
  if (status >= 300 && status < 500) return unavailableRobotsPolicy(origin, `robots.txt answered ${status}`);
  return unreachableRobotsPolicy(robotsUrl, status === 0 ? 'robots.txt could not be fetched' : `robots.txt answered an invalid status ${status}`);
}
