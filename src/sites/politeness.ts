/**
 * How a site read treats a site: the whole politeness rule in one place.
 *
 * - At most SITE_REQUESTS_IN_FLIGHT requests to one site at once, whichever organizations read it.
 * - Between two request starts (and after the previous answer), at least the read's gap
 *   (`gapMs`): SITE_READ_MIN_DELAY_MS (config, 1 s by default), or the site's `Crawl-delay` when it
 *   is longer, a Crawl-delay being honoured up to MAX_CRAWL_DELAY_SECONDS (robots.ts reads it).
 * - A `429` or `503` pauses the whole site in its gate (site-host-gate.ts) for its `Retry-After`
 *   (RFC 9110 10.2.3: seconds or an HTTP-date; DEFAULT_PUSHBACK_MS when it names none), at most
 *   MAX_PUSHBACK_MS; the page is asked again at most MAX_PUSHBACK_RETRIES times, and
 *   PUSHBACK_IN_A_ROW pages in a row refused so end the read with what it read.
 *
 * The gate (site-host-gate.ts) enforces these per site; the read's client (read/site-client.ts)
 * asks for turns with them; the /bot page (routes/bot.ts) tells site owners the same numbers.
 * Pure: the clock is the caller's.
 */

/** At most this many requests to one site at once. */
export const SITE_REQUESTS_IN_FLIGHT = 2;
/** The longest Crawl-delay honoured, in seconds; a longer one is read as this. */
export const MAX_CRAWL_DELAY_SECONDS = 60;
/** A page the site refuses with 429 or 503 is asked again at most this many times, each after the site's pause. */
export const MAX_PUSHBACK_RETRIES = 2;
/**
 * Pages in a row the site kept refusing (HTTP 429 or 503, each after the client waited the pause it
 * asked for and asked again, twice) that end a read with what it read so far.
 */
export const PUSHBACK_IN_A_ROW = 3;

/** The least time between two request starts to a site: the read's least delay, or the site's Crawl-delay when longer. */
export function gapMs(minDelayMs: number, crawlDelaySeconds: number | undefined): number {
  return Math.max(minDelayMs, (crawlDelaySeconds ?? 0) * 1000);
}

/** A Crawl-delay as honoured: at most MAX_CRAWL_DELAY_SECONDS; a non-numeric, negative or zero value is none. */
export function honouredCrawlDelay(value: number | undefined): number | undefined {
  // `!(value > 0)` is true for NaN too.
  if (value === undefined || !(value > 0)) return undefined;
  return Math.min(value, MAX_CRAWL_DELAY_SECONDS);
}

/** The longest pause a site's pushback earns: `Retry-After: 86400` waits this long, and the report says when to retry. */
export const MAX_PUSHBACK_MS = 120_000;
/**
 * The pause after a 429 or 503 that names no (valid) Retry-After. 30 s: long enough that a site
 * shedding load sees our requests stop, short enough that a read within its slice can still retry.
 */
export const DEFAULT_PUSHBACK_MS = 30_000;
/** A header longer than this is not a Retry-After (an IMF-fixdate has 29 characters). */
const MAX_HEADER_LENGTH = 64;

const DAYS = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';
const LONG_DAYS = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
/** `Sun, 06 Nov 1994 08:49:37 GMT`, the preferred form. */
const IMF_FIXDATE = new RegExp(`^(?:${DAYS}), (\\d{2}) (${MONTH}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT`, obsolete (RFC 850). */
const RFC850_DATE = new RegExp(`^(?:${LONG_DAYS}), (\\d{2})-(${MONTH})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
/** `Sun Nov  6 08:49:37 1994`, obsolete (C's asctime). */
const ASCTIME_DATE = new RegExp(`^(?:${DAYS}) (${MONTH}) ( \\d|\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$`);

/**
 * The delay a Retry-After header asks for, in ms from `now`: delay-seconds (`120`) or an HTTP-date
 * (in the past: 0). Undefined when absent or not one of RFC 9110's forms (a negative number, a
 * fraction, a date with a time zone other than GMT, anything else). Not capped (see pushbackMs);
 * at most Number.MAX_SAFE_INTEGER.
 */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (text === '' || text.length > MAX_HEADER_LENGTH) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  const at = httpDate(text, now);
  return at === undefined ? undefined : Math.max(0, at - now);
}

/** The pause a 429 or 503 earns: its Retry-After (else DEFAULT_PUSHBACK_MS), at most MAX_PUSHBACK_MS. */
export function pushbackMs(header: string | undefined, now: number): number {
  return Math.min(retryAfterMs(header, now) ?? DEFAULT_PUSHBACK_MS, MAX_PUSHBACK_MS);
}

/** An HTTP-date (RFC 9110 5.6.7) in ms since the epoch, or undefined. */
function httpDate(text: string, now: number): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(Number(match[3]), match[2]!, Number(match[1]), match.slice(4, 7));
  match = RFC850_DATE.exec(text);
  if (match) return utc(fullYear(Number(match[3]), now), match[2]!, Number(match[1]), match.slice(4, 7));
  match = ASCTIME_DATE.exec(text);
  if (match) return utc(Number(match[6]), match[1]!, Number(match[2]!.trim()), match.slice(3, 6));
  return undefined;
}

/** RFC 9110: a two-digit year more than 50 years in the future is the most recent past year with those digits. */
function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  const year = Math.floor(thisYear / 100) * 100 + twoDigits;
  return year > thisYear + 50 ? year - 100 : year;
}

/** The instant, or undefined when a field is out of range (`31 Feb`, `25:00:00`); a leap second is read as :59. */
function utc(year: number, month: string, day: number, time: string[]): number | undefined {
  const [hours, minutes, seconds] = time.map(Number) as [number, number, number];
  const monthIndex = MONTHS.indexOf(month);
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const at = Date.UTC(year, monthIndex, day, hours, minutes, Math.min(seconds, 59));
  const date = new Date(at);
  return date.getUTCFullYear() === year && date.getUTCMonth() === monthIndex && date.getUTCDate() === day ? at : undefined;
}
