import { SITE_READER_PRODUCT_TOKEN } from './robots.ts';

/**
 * What a page itself says about being indexed and followed, as pure functions: the robots meta tags
 * (`<meta name="robots" content="noindex, nofollow">`, and the same under our own product token,
 * `<meta name="reconbot" ...>`) and the `X-Robots-Tag` response header. robots.txt says what may be
 * requested (src/sites/robots.ts); these say what may be done with a page once it is read:
 * `noindex` (do not keep its text), `nofollow` (do not follow its links).
 *
 * The rules, as the search engines that defined them read them:
 * - rules are a comma-separated list, read case-insensitively; whitespace also separates them, so a
 *   sloppy `noindex nofollow` counts too;
 * - `none` is `noindex, nofollow`; `all`, `index` and `follow` restrict nothing, and where rules
 *   conflict the more restrictive one wins (`index, noindex` is noindex);
 * - a meta tag applies to us when its name is `robots` or our product token, case-insensitively;
 *   any other name (`googlebot`) is another crawler's business;
 * - an `X-Robots-Tag` item may start with a user agent and a colon (`googlebot: noindex`): that item
 *   and the items after it, up to the next user agent, apply only to that agent. Items without one
 *   apply to every crawler. Several headers reach us joined by `, ` (the Fetch API joins them), so
 *   `googlebot: nofollow` then `noindex` in two headers is read as one list scoped to googlebot:
 *   the join cannot be undone, and this reading is exact for every single header. Rules that
 *   carry a value after a colon (`unavailable_after: ...`, `max-snippet: 20`) are not user agents.
 *
 * Bounded: only the first MAX_DIRECTIVES_CHARS characters of a content attribute or header are
 * read, so a value of megabytes costs what a few KiB cost. Nothing here throws on what a site sends.
 */

/** What a page forbids us: keeping its text (`noindex`), following its links (`nofollow`). */
export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
}

/** Characters of one meta content or header value read; the rest is ignored (a real value is tens of characters). */
export const MAX_DIRECTIVES_CHARS = 4_096;

/** Directives that forbid nothing: what a page without robots meta tags or X-Robots-Tag says. */
export const NO_DIRECTIVES: Readonly<RobotsDirectives> = Object.freeze({ noindex: false, nofollow: false });

const OUR_TOKEN = SITE_READER_PRODUCT_TOKEN.toLowerCase();

/** Rules that take a value after a colon; an item starting with one of these names no user agent. */
const VALUE_RULES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/** A user agent or rule name and the rest of the item: `googlebot: noindex` -> `googlebot`, `noindex`. */
const SCOPED_ITEM = /^([a-z0-9_.-]+)\s*:\s*([\s\S]*)$/;

/**
 * The directives of one `<meta name content>` tag: those of `content` when `name` is `robots` or our
 * product token (case-insensitively, spaces around it ignored), else none.
 *
 * @example parseRobotsMeta('ReconBot', 'noindex') // { noindex: true, nofollow: false }
 * @example parseRobotsMeta('googlebot', 'none') // { noindex: false, nofollow: false }
 */
export function parseRobotsMeta(name: string | null | undefined, content: string | null | undefined): RobotsDirectives {
  if (!name || !content || !appliesToUs(name)) return { ...NO_DIRECTIVES };
  return rulesOf(items(content));
}

/** Whether a meta name (or an X-Robots-Tag user agent) addresses us: `robots` (everyone) or our product token. */
function appliesToUs(name: string): boolean {
  const agent = name.slice(0, 64).trim().toLowerCase();
  return agent === 'robots' || agent === OUR_TOKEN;
}

/**
 * The directives of an `X-Robots-Tag` header value (several headers joined by `, ` as the Fetch API
 * gives them), for us: unscoped items and items scoped to our product token count; items scoped to
 * another agent do not. `null` (no header) gives none.
 *
 * @example parseXRobotsTag('googlebot: noindex, reconbot: nofollow') // { noindex: false, nofollow: true }
 * @example parseXRobotsTag('none') // { noindex: true, nofollow: true }
 */
export function parseXRobotsTag(headerValue: string | null | undefined): RobotsDirectives {
  if (!headerValue) return { ...NO_DIRECTIVES };
  const ours: string[] = [];
  let scopedToUs = true;
  for (const item of headerValue.slice(0, MAX_DIRECTIVES_CHARS).split(',')) {
    let rule = item.trim().toLowerCase();
    const scoped = SCOPED_ITEM.exec(rule);
    if (scoped && !VALUE_RULES.has(scoped[1]!)) {
      scopedToUs = scoped[1] === OUR_TOKEN;
      rule = scoped[2]!;
    }
    if (scopedToUs) ours.push(rule);
  }
  return rulesOf(ours.flatMap((rule) => rule.split(/\s+/)));
}

/**
 * Every directive of all `sources` together: a page is noindex when any of them says so, and the
 * same for nofollow (the most restrictive wins).
 *
 * @example mergeDirectives(parseXRobotsTag(header), metaDirectives) // noindex from either
 */
export function mergeDirectives(...sources: readonly RobotsDirectives[]): RobotsDirectives {
  return {
    noindex: sources.some((source) => source.noindex),
    nofollow: sources.some((source) => source.nofollow),
  };
}

/** The rule words of a meta content value: lowercased, split at commas and whitespace, bounded. */
function items(content: string): string[] {
  return content.slice(0, MAX_DIRECTIVES_CHARS).toLowerCase().split(/[\s,]+/);
}

/** What a list of rule words forbids (`none` both; unknown words nothing). */
function rulesOf(rules: readonly string[]): RobotsDirectives {
  const directives = { ...NO_DIRECTIVES };
  for (const rule of rules) {
    if (rule === 'noindex' || rule === 'none') directives.noindex = true;
    if (rule === 'nofollow' || rule === 'none') directives.nofollow = true;
  }
  return directives;
}
