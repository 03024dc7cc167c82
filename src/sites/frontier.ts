/**
 * Which pages a site read requests, and in what order: pure policy, no I/O (the run object fetches).
 *
 * - `siteUrl` turns a link into the one URL we would request, or says why not.
 * - `pagePriority` scores a URL so the pages a GTM team needs first are read first.
 * - `Frontier` is the queue of a read: a page budget, a visited set (also fed by canonical URLs and
 *   content hashes), a bounded queue, and the counters the run's report shows.
 */

/** The longest URL a site read requests, checks against robots.txt or takes from a sitemap (the sitemaps protocol's own limit). */
export const MAX_URL_LENGTH = 2_048;
/** Pages read by default, and at most, in one site read. */
export const DEFAULT_PAGE_BUDGET = 50;
export const MAX_PAGE_BUDGET = 500;
/** The queue holds at most this many URLs per page of budget; past that the lowest-priority one is dropped. */
export const QUEUE_PER_BUDGET = 10;

/** Why a link is not a page we would read. */
export type SiteUrlRefusal =
  | 'invalid' // not a URL (or no base to resolve a relative one)
  | 'scheme' // not http or https (mailto:, javascript:, tel:, data:, ftp:, ...)
  | 'credentials' // user:password@ in the URL
  | 'off-site' // another host, or a port that is not the scheme's default
  | 'too-long' // more than MAX_URL_LENGTH characters
  | 'non-html'; // a file extension that is not a page (image, pdf, archive, css, js, font, media, feed, ...)

export type SiteUrlResult = { ok: true; url: string } | { ok: false; reason: SiteUrlRefusal };

/**
 * Extensions of files that are not HTML pages, so never requested as one. A path with no extension,
 * or with a page extension (.html, .htm, .php, .aspx, .jsp, ...), is a page.
 */
export const NON_PAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  // images
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'svg', 'svgz', 'ico', 'bmp', 'tif', 'tiff', 'heic', 'heif', 'psd', 'eps',
  // documents and data
  'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'epub', 'csv', 'tsv', 'txt', 'md',
  'json', 'xml', 'rss', 'atom', 'ics', 'vcf', 'gpx', 'kml',
  // archives, installers and binaries
  'zip', 'gz', 'tgz', 'tar', 'bz2', 'xz', 'rar', '7z', 'dmg', 'exe', 'msi', 'pkg', 'deb', 'rpm', 'apk', 'ipa', 'iso',
  'bin', 'jar', 'wasm',
  // style, scripts and source maps
  'css', 'js', 'mjs', 'cjs', 'map', 'ts',
  // fonts
  'woff', 'woff2', 'ttf', 'otf', 'eot',
  // video and audio
  'mp4', 'm4v', 'webm', 'mov', 'avi', 'mkv', 'wmv', 'flv', 'mpg', 'mpeg', 'mp3', 'm4a', 'wav', 'ogg', 'oga', 'ogv',
  'flac', 'aac', 'opus',
]);

/**
 * Extensions of documents a read requests as pages (a linked price sheet or datasheet is a source
 * too), at most MAX_DOCUMENTS_PER_READ of them per read.
 */
export const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set(['pdf']);
/** Documents (DOCUMENT_EXTENSIONS) one read requests at most: they are larger than pages and cost more to read. */
export const MAX_DOCUMENTS_PER_READ = 10;

/** Whether a URL's path ends in a DOCUMENT_EXTENSIONS extension. */
export function isDocumentUrl(url: string): boolean {
  const path = URL.canParse(url) ? new URL(url).pathname.toLowerCase() : '';
  const extension = /\.([a-z0-9]{1,6})$/.exec(path)?.[1];
  return extension !== undefined && DOCUMENT_EXTENSIONS.has(extension);
}

/**
 * The site a domain names: `example.com` from `Example.COM.`, `www.example.com`, `bücher.de` as
 * `xn--bcher-kva.de`; without `www.` or a final dot. A port, when given (`127.0.0.1:8787`), is part
 * of the site. Undefined when `domain` is not a host name (a path, user or query in it, or empty).
 */
export function siteDomain(domain: string): string | undefined {
  const text = domain.trim().toLowerCase();
  if (text === '' || /[/?#@\\\s]/.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${text}/`);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/\.$/, '');
  if (host === '') return undefined;
  const site = host.startsWith('www.') ? host.slice(4) : host;
  // Parsed as http, ":80" is already gone; ":443" is https's default, as good as none.
  return url.port === '' || url.port === '443' ? site : `${site}:${url.port}`;
}

/**
 * Whether the parsed `url` is on `site` (from siteDomain): the host itself, `www.` + host or one of
 * the read's named `hosts` (its other hosts, `docs.example.com`: lower case), and the site's port,
 * else the scheme's default (the parser drops ":443" on https and ":80" on http).
 */
function onSite(site: string, url: URL, hosts: readonly string[] = []): boolean {
  const colon = site.lastIndexOf(':');
  const [host, port] = colon > site.lastIndexOf(']') ? [site.slice(0, colon), site.slice(colon + 1)] : [site, ''];
  const hostname = url.hostname.replace(/\.$/, '');
  return url.port === port && (hostname === host || hostname === `www.${host}` || hosts.includes(hostname));
}

/**
 * The URL we would request for the link `raw` found on (or given for) the site `domain`, resolved
 * against `base` when relative; or why not.
 *
 * Normalization: http and https only; same site only (`domain` and `www.` + domain, any case; a
 * port other than the scheme's default is another site, unless `domain` names that port, as
 * `127.0.0.1:8787` does); no user or password; query string and
 * fragment dropped; host lower case; dot segments resolved and runs of `/` collapsed to one;
 * percent escapes in upper case. The scheme and host are kept as found (`http://www.` and
 * `https://` may be different servers), and so is a trailing slash (`/pricing` and `/pricing/`
 * are different URLs to HTTP): pages that are the same under two URLs are caught by their
 * canonical URL and their content hash (`Frontier.canonicalUrl`, `Frontier.markContentHash`).
 * At most MAX_URL_LENGTH characters; a path ending in a NON_PAGE_EXTENSIONS extension is refused.
 *
 * `file`: the URL of a file of the site (robots.txt, a sitemap) rather than a page: its query string
 * is kept and any extension allowed. `hosts`: the site's hosts besides the apex and `www.` that the
 * read names (`docs.example.com`), on the site too.
 *
 * @example siteUrl('example.com', '../pricing/?plan=pro#faq', 'https://www.example.com/en/about')
 *   // { ok: true, url: 'https://www.example.com/pricing/' }
 */
export function siteUrl(domain: string, raw: string, base?: string, options: { file?: boolean; hosts?: readonly string[] } = {}): SiteUrlResult {
  const text = raw.trim();
  // Refuse absurd input before the parser walks it; resolution can shorten a URL, not by this much.
  if (text.length > MAX_URL_LENGTH * 4) return { ok: false, reason: 'too-long' };
  let url: URL;
  try {
    url = base === undefined ? new URL(text) : new URL(text, base);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'scheme' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'credentials' };
  // The parser drops a default port (":443" on https, ":80" on http), so any port left is another server.
  const site = siteDomain(domain);
  if (site === undefined || !onSite(site, url, options.hosts)) return { ok: false, reason: 'off-site' };
  if (!options.file) url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/{2,}/g, '/').replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
  const normalized = url.href;
  if (normalized.length > MAX_URL_LENGTH) return { ok: false, reason: 'too-long' };
  if (options.file) return { ok: true, url: normalized };
  const last = url.pathname.slice(url.pathname.lastIndexOf('/') + 1).toLowerCase();
  const extension = /\.([a-z0-9]{1,6})$/.exec(last)?.[1];
  if (extension !== undefined && NON_PAGE_EXTENSIONS.has(extension)) return { ok: false, reason: 'non-html' };
  return { ok: true, url: normalized };
}

/** The kinds of page a GTM team reads, and the words in a path that say a page is one. */
export type PageKind =
  | 'home'
  | 'pricing'
  | 'product'
  | 'about'
  | 'customers'
  | 'news'
  | 'blog'
  | 'changelog'
  | 'careers'
  | 'integrations'
  | 'comparisons'
  | 'other';

export interface PageKindRule {
  kind: Exclude<PageKind, 'home' | 'other'>;
  /** The score of the kind's index page (`/pricing`); deeper pages of the kind score less (PAGE_DEPTH_PENALTY). */
  score: number;
  /** Words matched as whole words of a path segment (`case-studies` matches `/customer-case-studies`, not `/showcase`). */
  words: readonly string[];
}

/** The score of the home page (`/`, `/index.html`, or a locale's home such as `/en/`). */
export const HOME_SCORE = 100;
/** The score of a page whose path names no kind in PAGE_KIND_RULES. */
export const OTHER_SCORE = 20;

/**
 * What a GTM team needs first, in that order: the kind's score for its index page. The first rule
 * whose word matches wins; segments are read from the left, so `/blog/our-new-pricing` is a blog
 * post, not pricing. Only the first two segments (after a locale such as `en` or `en-us`) name the kind.
 */
export const PAGE_KIND_RULES: readonly PageKindRule[] = [
  { kind: 'pricing', score: 95, words: ['pricing', 'prices', 'price', 'plans', 'plan', 'editions', 'buy'] },
  { kind: 'product', score: 90, words: ['product', 'products', 'features', 'feature', 'platform', 'solutions', 'solution', 'how-it-works', 'use-cases', 'tour'] },
  { kind: 'about', score: 85, words: ['about', 'about-us', 'company', 'team', 'leadership', 'mission', 'who-we-are'] },
  { kind: 'customers', score: 80, words: ['customers', 'customer', 'case-studies', 'case-study', 'success-stories', 'customer-stories', 'testimonials', 'clients'] },
  { kind: 'news', score: 75, words: ['news', 'press', 'newsroom', 'media', 'press-releases', 'announcements'] },
  { kind: 'blog', score: 70, words: ['blog', 'blogs', 'articles', 'insights', 'stories'] },
  { kind: 'changelog', score: 65, words: ['changelog', 'change-log', 'release-notes', 'releases', 'whats-new', 'updates'] },
  { kind: 'careers', score: 60, words: ['careers', 'career', 'jobs', 'job', 'join-us', 'hiring', 'work-with-us'] },
  { kind: 'integrations', score: 55, words: ['integrations', 'integration', 'partners', 'partner', 'marketplace', 'apps', 'ecosystem'] },
  { kind: 'comparisons', score: 50, words: ['vs', 'versus', 'compare', 'comparison', 'comparisons', 'alternative', 'alternatives'] },
];

/**
 * Added to the priority of a page whose sitemap `lastmod` is later than the last read of it (or that
 * was never read): a re-read asks first for what changed. Worth a kind's lead over the next (about
 * two ranks), never a trap's penalty.
 */
export const CHANGED_BONUS = 30;

/** Subtracted for each path segment past the first: an index page comes before the pages under it. */
export const PAGE_DEPTH_PENALTY = 15;
/** Subtracted for each trap found in a path (TRAP_RULES): read, if at all, after every ordinary page. */
export const TRAP_PENALTY = 100;
/**
 * Pages of one kind of trap a read requests at most: enough to read a real archive page or two, not
 * to spend the budget walking a calendar month after month once the real pages ran out.
 */
export const MAX_PAGES_PER_TRAP = 3;
/** A path longer than this many characters, or deeper than MAX_PLAIN_DEPTH segments, is a trap. */
export const MAX_PLAIN_PATH_LENGTH = 200;
export const MAX_PLAIN_DEPTH = 6;

const YEAR = /^(?:19|20)\d{2}$/;
const MONTH_OR_DAY = /^\d{1,2}$/;
const DATE = /^(?:19|20)\d{2}-\d{1,2}(?:-\d{1,2})?$/;
const ARCHIVE_WORDS = new Set(['tag', 'tags', 'category', 'categories', 'author', 'authors', 'archive', 'archives', 'label', 'labels']);

/** The traps a path may hold, each a test on its lower-case segments (and the path's length). */
export const TRAP_RULES: readonly { trap: string; test: (segments: readonly string[], path: string) => boolean }[] = [
  // /events/calendar/2031/07/14, /calendar?date= (query dropped): a calendar walks dates forever.
  { trap: 'calendar', test: (s) => s.some((x) => x === 'calendar' || x === 'calendars' || x.startsWith('calendar-')) },
  // A path that ends in a date (/blog/2024/05, /events/2024-05-12) is a date archive, not an article.
  { trap: 'date-archive', test: (s) => {
    const last = s.at(-1) ?? '';
    return DATE.test(last) || YEAR.test(last) || (MONTH_OR_DAY.test(last) && s.some((x) => YEAR.test(x)));
  } },
  // /blog/page/1234: pagination of a listing.
  { trap: 'pagination', test: (s) => s.some((x, i) => (x === 'page' || x === 'p') && /^\d+$/.test(s[i + 1] ?? '')) },
  // /blog/tag/ai, /category/news, /author/jane: the same posts again, listed another way.
  { trap: 'archive', test: (s) => s.some((x) => ARCHIVE_WORDS.has(x)) },
  // Very long or deep paths, and paths that repeat themselves (/a/b/a/b/a/b: relative links looping).
  { trap: 'long', test: (s, path) => path.length > MAX_PLAIN_PATH_LENGTH || s.length > MAX_PLAIN_DEPTH },
  { trap: 'repetitive', test: (s) => s.length - new Set(s).size >= 2 },
];

const LOCALE = /^[a-z]{2}(?:[-_][a-z]{2,4})?$/;
const RULE_WORDS = new Set(PAGE_KIND_RULES.flatMap((rule) => rule.words));

/** How many leading segments are a locale (`/en/`, `/pt-br/`): 0 or 1. `/vs/` is a word, not a locale. */
function localeSegments(segments: readonly string[]): number {
  const first = segments[0];
  return first !== undefined && LOCALE.test(first) && !RULE_WORDS.has(first) ? 1 : 0;
}

function pathSegments(url: string): { segments: string[]; path: string } | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segments = path.toLowerCase().split('/').filter((segment) => segment !== '');
  return { segments, path };
}

/** A segment as words joined by `-`: `Case_Studies.html` -> `case-studies`. */
function segmentWords(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // A stray `%` stays as it is.
  }
  return text.replace(/\.(?:html?|php|aspx?|jsp)$/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function matchesWord(words: string, word: string): boolean {
  return words === word || words.startsWith(`${word}-`) || words.endsWith(`-${word}`) || words.includes(`-${word}-`);
}

/** The kind of page a URL names, from PAGE_KIND_RULES (its first two segments after a locale). */
export function pageKind(url: string): PageKind {
  const parts = pathSegments(url);
  return parts === undefined ? 'other' : kindOf(parts);
}

function kindOf(parts: { segments: string[] }): PageKind {
  const segments = parts.segments.slice(localeSegments(parts.segments));
  if (segments.length === 0 || (segments.length === 1 && /^index\.(?:html?|php|aspx?)$/.test(segments[0] ?? ''))) return 'home';
  for (const segment of segments.slice(0, 2)) {
    const words = segmentWords(segment);
    const rule = PAGE_KIND_RULES.find((candidate) => candidate.words.some((word) => matchesWord(words, word)));
    if (rule !== undefined) return rule.kind;
  }
  return 'other';
}

/** The traps (TRAP_RULES) a URL falls into; none for an ordinary page. */
export function pageTraps(url: string): string[] {
  const parts = pathSegments(url);
  return parts === undefined ? [] : trapsOf(parts);
}

function trapsOf(parts: { segments: string[]; path: string }): string[] {
  return TRAP_RULES.filter((rule) => rule.test(parts.segments, parts.path)).map((rule) => rule.trap);
}

/**
 * How soon to read a URL: higher first. The kind's score (HOME_SCORE, PAGE_KIND_RULES, OTHER_SCORE),
 * less PAGE_DEPTH_PENALTY per segment past the first (a locale segment is free), less TRAP_PENALTY
 * per trap. `/pricing` 95, `/blog` 70, `/blog/a-post` 55, `/about-x` 20, `/events/calendar/2031/07` far below 0.
 */
export function pagePriority(url: string): number {
  const parts = pathSegments(url);
  if (parts === undefined) return -TRAP_PENALTY * TRAP_RULES.length;
  const kind = kindOf(parts);
  const base = kind === 'home' ? HOME_SCORE : kind === 'other' ? OTHER_SCORE : (PAGE_KIND_RULES.find((rule) => rule.kind === kind)?.score ?? OTHER_SCORE);
  const depth = Math.max(0, parts.segments.length - localeSegments(parts.segments) - 1);
  return base - depth * PAGE_DEPTH_PENALTY - trapsOf(parts).length * TRAP_PENALTY;
}

/** Why a URL offered to the frontier was not queued, or not read. */
export type FrontierSkip =
  | SiteUrlRefusal
  | 'disallowed' // refused by the read's `allows` (robots.txt)
  | 'duplicate' // already queued or already read (or known as another page's canonical URL)
  | 'queue-full' // dropped from (or not let into) a full queue for URLs of higher priority
  | 'trap' // a trap (calendar, date archive, pagination, ...) of which MAX_PAGES_PER_TRAP pages were read already
  | 'documents' // a document past MAX_DOCUMENTS_PER_READ
  | 'out-of-scope'; // outside the read's includePaths / excludePaths

/** What the run's report shows of the frontier. */
export interface FrontierReport {
  budget: number;
  /** URLs `next()` handed out: pages requested (at most `budget`). */
  requested: number;
  /** URLs ever let into the queue, and those in it now. */
  enqueued: number;
  queued: number;
  /** URLs not queued (or dropped from the queue), by reason. */
  skipped: Record<FrontierSkip, number>;
  /** Pages read that turned out to be another page: by canonical URL, by content hash. */
  duplicates: { canonical: number; contentHash: number; canonicalIgnored?: number };
}

export interface FrontierOptions {
  /** The site: `example.com` (its `www.` is the same site), or a host and port (`127.0.0.1:8787`). */
  domain: string;
  /** The site's hosts besides the apex and `www.` that the read names (`docs.example.com`, lower case). */
  hosts?: readonly string[];
  /** Pages to read: an integer from 1 to MAX_PAGE_BUDGET; DEFAULT_PAGE_BUDGET when absent. */
  budget?: number;
  /**
   * Whether the site lets us request a URL (its robots.txt rules, for our user agent), asked of
   * each normalized URL before it is queued; a refused URL is counted `disallowed`. All allowed when absent.
   */
  allows?: (url: string) => boolean;
  /** Whether a URL is in the read's scope (its includePaths and excludePaths: src/sites/path-scope.ts); all when absent. */
  inScope?: (url: string) => boolean;
}

interface Entry {
  url: string;
  priority: number;
}

/**
 * A frontier's whole state as plain data, so a read that works in slices (and survives restarts)
 * can keep it between them: `Frontier.restore(options, frontier.snapshot())` continues where it was.
 */
export interface FrontierSnapshot {
  /** [url, priority], in queue order (worst first). */
  queue: [string, number][];
  visited: string[];
  /** Pages requested per trap (absent in snapshots of older reads: none). */
  traps?: Record<string, number>;
  /** Documents requested (absent in older snapshots: none). */
  documents?: number;
  /** Host -> the host it redirects to (absent in older snapshots: none). */
  hostAliases?: [string, string][];
  hashes: [string, string][];
  requested: number;
  enqueued: number;
  skipped: Record<FrontierSkip, number>;
  duplicates: { canonical: number; contentHash: number; canonicalIgnored?: number };
}

/** Total order: lower priority first, then the URL that sorts later first (so the last entry is the best). */
function ascending(a: Entry, b: Entry): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  return a.url < b.url ? 1 : a.url > b.url ? -1 : 0;
}

/**
 * The queue of one site read. Offer it URLs (`add`, from robots.txt's sitemaps, sitemaps and the
 * links of pages read); take the best one still unread (`next`) until the budget is spent. The queue
 * holds at most QUEUE_PER_BUDGET x budget URLs: when full, the lowest-priority URL is dropped. The
 * order is deterministic: by `pagePriority`, ties by URL (code-unit order).
 *
 * A page requested counts against the budget whatever it turns out to be; a page found to be a
 * duplicate (`markContentHash`) was still requested.
 */
export class Frontier {
  readonly domain: string;
  /** The read's named hosts, as siteUrl takes them. */
  readonly #hosts: { hosts: readonly string[] };
  readonly budget: number;
  readonly maxQueued: number;
  readonly #allows: (url: string) => boolean;
  readonly #inScope: (url: string) => boolean;
  /** Sorted by `ascending`: the best entry is the last. At most `maxQueued` long. */
  readonly #queue: Entry[] = [];
  readonly #queuedUrls = new Set<string>();
  /** URLs requested, and URLs known to be a page already requested (canonical URLs). At most 2 x budget. */
  readonly #visited = new Set<string>();
  /** Absolute links as offered -> the URL they normalized to, at most 2 x maxQueued (not in snapshots). */
  readonly #linkUrls = new Map<string, string>();
  /** Content hash -> the first URL read with it. At most `budget` entries. */
  readonly #hashes = new Map<string, string>();
  #requested = 0;
  #enqueued = 0;
  readonly #skipped: Record<FrontierSkip, number> = {
    invalid: 0, scheme: 0, credentials: 0, 'off-site': 0, 'too-long': 0, 'non-html': 0, disallowed: 0, duplicate: 0, 'queue-full': 0, trap: 0, documents: 0, 'out-of-scope': 0,
  };
  #documents = 0;
  /** Host -> the host of the site it redirects to, learned from redirects (`learnRedirect`): its URLs are queued under the target host. */
  readonly #hostAliases = new Map<string, string>();
  /** Pages requested per trap (TRAP_RULES' names). */
  readonly #trapPages = new Map<string, number>();
  /** Pages kept under their canonical URL (the same page), canonical links ignored (another page), copies by content hash. */
  readonly #duplicates: { canonical: number; contentHash: number; canonicalIgnored?: number } = { canonical: 0, contentHash: 0 };

  constructor(options: FrontierOptions) {
    const budget = options.budget ?? DEFAULT_PAGE_BUDGET;
    if (!Number.isInteger(budget) || budget < 1 || budget > MAX_PAGE_BUDGET) {
      throw new RangeError(`A page budget is an integer from 1 to ${MAX_PAGE_BUDGET}; got ${String(budget)}`);
    }
    const domain = siteDomain(options.domain);
    if (domain === undefined) throw new RangeError(`Not a domain: ${JSON.stringify(options.domain)}`);
    this.domain = domain;
    this.#hosts = { hosts: options.hosts ?? [] };
    this.budget = budget;
    this.maxQueued = budget * QUEUE_PER_BUDGET;
    this.#allows = options.allows ?? (() => true);
    this.#inScope = options.inScope ?? (() => true);
  }

  /**
   * Offers the link `raw` (resolved against `base` when relative), its priority raised by `bonus`
   * (CHANGED_BONUS for a page its sitemap says changed since the last read). Returns the normalized
   * URL when it was queued, else why not (the reason is also counted in the report).
   */
  add(raw: string, base?: string, bonus = 0): { queued: true; url: string } | { queued: false; reason: FrontierSkip } {
    // Most links of a page are the site's navigation, offered by every page: known without parsing again.
    const known = base === undefined ? this.#linkUrls.get(raw) : undefined;
    if (known !== undefined && (this.#visited.has(known) || this.#queuedUrls.has(known))) return this.#skip('duplicate');
    const result = siteUrl(this.domain, raw, base, this.#hosts);
    if (!result.ok) return this.#skip(result.reason);
    const url = this.#aliased(result.url);
    if (base === undefined && this.#linkUrls.size < this.maxQueued * 2) this.#linkUrls.set(raw, url);
    if (this.#visited.has(url) || this.#queuedUrls.has(url)) return this.#skip('duplicate');
    if (!this.#inScope(url)) return this.#skip('out-of-scope');
    if (!this.#allows(url)) return this.#skip('disallowed');
    const entry: Entry = { url, priority: pagePriority(url) + bonus };
    if (this.#queue.length >= this.maxQueued) {
      const worst = this.#queue[0];
      if (worst === undefined || ascending(entry, worst) <= 0) return this.#skip('queue-full');
      this.#queue.shift();
      this.#queuedUrls.delete(worst.url);
      this.#skipped['queue-full'] += 1;
    }
    this.#queue.splice(this.#insertionIndex(entry), 0, entry);
    this.#queuedUrls.add(url);
    this.#enqueued += 1;
    return { queued: true, url };
  }

  /** The best queued URL not yet read, now counted as requested; undefined when the budget is spent or the queue empty. */
  next(): string | undefined {
    while (this.#requested < this.budget) {
      const entry = this.#queue.pop();
      if (entry === undefined) return undefined;
      this.#queuedUrls.delete(entry.url);
      // Queued before another page named it as its canonical URL: already read under that page.
      if (this.#visited.has(entry.url)) {
        this.#skipped.duplicate += 1;
        continue;
      }
      const traps = pageTraps(entry.url);
      if (traps.some((trap) => (this.#trapPages.get(trap) ?? 0) >= MAX_PAGES_PER_TRAP)) {
        this.#skipped.trap += 1;
        continue;
      }
      const document = isDocumentUrl(entry.url);
      if (document && this.#documents >= MAX_DOCUMENTS_PER_READ) {
        this.#skipped.documents += 1;
        continue;
      }
      if (document) this.#documents += 1;
      for (const trap of traps) this.#trapPages.set(trap, (this.#trapPages.get(trap) ?? 0) + 1);
      this.#visited.add(entry.url);
      this.#requested += 1;
      return entry.url;
    }
    return undefined;
  }

  /**
   * Claims `url` (a URL of the site a redirect leads to) as requested, so `next()` never hands it
   * out: false when it was requested already. It does not count against the budget (the request
   * that redirected did).
   */
  claim(url: string): boolean {
    const result = siteUrl(this.domain, url, undefined, this.#hosts);
    if (!result.ok || this.#visited.has(result.url)) return false;
    this.#visited.add(result.url);
    return true;
  }

  /**
   * Gives back a URL `next()` handed out whose request never left (a read restarted while it was in
   * flight): it is queued again and no longer counts against the budget, so it is requested, and
   * counted, once.
   */
  retry(url: string): void {
    if (!this.#visited.delete(url)) return;
    this.#requested = Math.max(0, this.#requested - 1);
    if (isDocumentUrl(url)) this.#documents = Math.max(0, this.#documents - 1);
    for (const trap of pageTraps(url)) this.#trapPages.set(trap, Math.max(0, (this.#trapPages.get(trap) ?? 0) - 1));
    const entry: Entry = { url, priority: pagePriority(url) };
    if (this.#queuedUrls.has(url)) return;
    this.#queue.splice(this.#insertionIndex(entry), 0, entry);
    this.#queuedUrls.add(url);
  }

  /** Frees `url` claimed for a redirect whose request never left (a read restarted): the page that led to it claims it again. */
  unclaim(url: string): void {
    this.#visited.delete(url);
  }

  /**
   * Learns from a redirect of `from` to `to` (both URLs of the site, as siteUrl gives them): when it
   * only changed the host (the apex to `www.`, or back), every URL of `from`'s host is queued under
   * `to`'s from now on, queued ones included, so the read does not spend a request (and a page of
   * its budget) on each redirect.
   */
  learnRedirect(from: string, to: string): void {
    if (!URL.canParse(from) || !URL.canParse(to)) return;
    const a = new URL(from);
    const b = new URL(to);
    if (a.host === b.host || a.pathname !== b.pathname || this.#hostAliases.has(a.host) || this.#hostAliases.get(b.host) === a.host) return;
    this.#hostAliases.set(a.host, b.host);
    const moved = this.#queue.filter((entry) => new URL(entry.url).host === a.host);
    if (moved.length === 0) return;
    for (const entry of moved) this.#queuedUrls.delete(entry.url);
    const kept = this.#queue.filter((entry) => new URL(entry.url).host !== a.host);
    this.#queue.length = 0;
    this.#queue.push(...kept);
    for (const entry of moved) {
      const url = this.#aliased(entry.url);
      if (this.#visited.has(url) || this.#queuedUrls.has(url)) continue;
      this.#queue.splice(this.#insertionIndex({ url, priority: entry.priority }), 0, { url, priority: entry.priority });
      this.#queuedUrls.add(url);
    }
  }

  /** `url` under the host its host redirects to (learnRedirect), if it does. */
  #aliased(url: string): string {
    if (this.#hostAliases.size === 0) return url;
    const parsed = new URL(url);
    const host = this.#hostAliases.get(parsed.host);
    if (host === undefined) return url;
    parsed.host = host;
    return parsed.href;
  }

  /**
   * The URL to keep the page `pageUrl` under, given its canonical link `raw` (resolved against
   * `pageUrl`). A canonical link is a hint, not a fact: templates that name the home page as every
   * page's canonical are common. It replaces the page's URL only when it names the same page: a URL
   * of the site whose path is the page's once normalized (a trailing slash aside; the host may be the
   * site's other one). Then the canonical URL counts as read (never requested) and is returned;
   * otherwise (another path, off-site, not a page) the page keeps its own URL (returned as it is) and
   * `ignored` counts it. Pages that are copies under other paths are caught by their content hash.
   */
  canonicalUrl(raw: string, pageUrl: string): string {
    const canonical = siteUrl(this.domain, raw, pageUrl, this.#hosts);
    const page = siteUrl(this.domain, pageUrl, undefined, this.#hosts);
    if (!page.ok) return pageUrl;
    if (!canonical.ok || canonical.url === page.url) return page.url;
    const trimmed = (url: string) => new URL(url).pathname.replace(/\/+$/, '') || '/';
    if (trimmed(canonical.url) !== trimmed(page.url)) {
      this.#duplicates.canonicalIgnored = (this.#duplicates.canonicalIgnored ?? 0) + 1;
      return page.url;
    }
    if (this.#visited.size < 2 * this.budget) this.#visited.add(canonical.url);
    this.#duplicates.canonical += 1;
    return canonical.url;
  }

  /**
   * Records the hash of the content of the page `pageUrl` just read (the caller's choice of digest,
   * e.g. SHA-256 of the text). `duplicate` when a page read before had the same hash; when that page
   * has the same path on the site's other host, the hosts are taken as mirrors (learnRedirect).
   */
  markContentHash(hash: string, pageUrl: string): 'new' | 'duplicate' {
    const first = this.#hashes.get(hash);
    if (first !== undefined && first !== pageUrl) {
      this.#duplicates.contentHash += 1;
      // The same page on the site's other host (both serve it, neither redirects): the hosts are
      // mirrors, and the rest of this one's URLs are read under the first one's.
      this.learnRedirect(pageUrl, first);
      return 'duplicate';
    }
    if (first === undefined && this.#hashes.size < this.budget) this.#hashes.set(hash, pageUrl);
    return 'new';
  }

  /** Whether `next()` may still hand out a URL (budget left and something queued). */
  get done(): boolean {
    return this.#requested >= this.budget || this.#queue.length === 0;
  }

  snapshot(): FrontierSnapshot {
    return {
      queue: this.#queue.map((entry) => [entry.url, entry.priority]),
      visited: [...this.#visited],
      traps: Object.fromEntries(this.#trapPages),
      documents: this.#documents,
      hostAliases: [...this.#hostAliases],
      hashes: [...this.#hashes],
      requested: this.#requested,
      enqueued: this.#enqueued,
      skipped: { ...this.#skipped },
      duplicates: { ...this.#duplicates },
    };
  }

  /** The frontier `snapshot` was taken of, with `options` (the same domain and budget; `allows` again). */
  static restore(options: FrontierOptions, snapshot: FrontierSnapshot): Frontier {
    const frontier = new Frontier(options);
    for (const [url, priority] of snapshot.queue.slice(-frontier.maxQueued)) {
      frontier.#queue.push({ url, priority });
      frontier.#queuedUrls.add(url);
    }
    frontier.#queue.sort(ascending);
    for (const url of snapshot.visited) frontier.#visited.add(url);
    for (const [hash, url] of snapshot.hashes) frontier.#hashes.set(hash, url);
    for (const [trap, pages] of Object.entries(snapshot.traps ?? {})) frontier.#trapPages.set(trap, pages);
    frontier.#documents = snapshot.documents ?? 0;
    for (const [from, to] of snapshot.hostAliases ?? []) frontier.#hostAliases.set(from, to);
    frontier.#requested = snapshot.requested;
    frontier.#enqueued = snapshot.enqueued;
    Object.assign(frontier.#skipped, snapshot.skipped);
    Object.assign(frontier.#duplicates, snapshot.duplicates);
    return frontier;
  }

  report(): FrontierReport {
    return {
      budget: this.budget,
      requested: this.#requested,
      enqueued: this.#enqueued,
      queued: this.#queue.length,
      skipped: { ...this.#skipped },
      duplicates: { ...this.#duplicates },
    };
  }

  #skip(reason: FrontierSkip): { queued: false; reason: FrontierSkip } {
    this.#skipped[reason] += 1;
    return { queued: false, reason };
  }

  /** Binary search for where `entry` goes in the ascending queue. */
  #insertionIndex(entry: Entry): number {
    let low = 0;
    let high = this.#queue.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ascending(this.#queue[middle] as Entry, entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
