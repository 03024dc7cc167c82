import picomatch from 'picomatch/posix';
import { z } from './openapi.ts';
import { messageOf } from '../errors.ts';

/**
 * Path patterns: which pages of a site a read may request (`includePaths`, `excludePaths` of
 * POST /api/v1/oms/sites and of a watch), as one schema for both and the one way a pattern is
 * compiled. The scope built from them (which URL is read) is src/sites/path-scope.ts; this file is
 * in the ground because the watch's create schema (ground/schemas/watch.ts) takes the same lists.
 *
 * The dialect is picomatch's, narrowed so that matching stays cheap on any path a site can link:
 * - A pattern is matched against a URL's path only (no query or fragment), both read with
 *   `decodeURI`, so `%20` and a space, `%C3%BC` and `ü` are the same; an encoded `/` (`%2F`) stays
 *   encoded, as the site's server sees it. Case is ignored: `/Pricing` is `/pricing`.
 * - `*` is any run of characters within one segment, `**` (a whole segment) any number of segments,
 *   none included, `?` one character other than `/`, `[a-z]` and `[!a-z]` a character class. Both
 *   stars also match segments that start with a dot.
 * - A pattern starts with `/` (matched from the path's start) or with `*`; one that does not start
 *   with `/` is matched at any depth, as if it began with `/**\/` (`*.pdf` is `/**\/*.pdf`). `/**\/x`
 *   matches `/x` too: patterns and paths are compared without their leading `/`, since picomatch
 *   makes a `**` right after a leading `/` stand for at least one segment. `/` alone is the home page.
 * - Not supported, and refused with a message: braces (`{a,b}`: list each as its own pattern),
 *   groups and alternation (`(`, `)`, `|`), backslash escapes, and more than one `**` or more than
 *   one `*` in a segment. picomatch compiles a pattern to a RegExp, whose matching time grows with
 *   the path's length to the power of the wildcards that can compete for the same characters: with
 *   these limits a hostile 2,000-character path costs milliseconds, not minutes. `!`, `+` and `@`
 *   are plain characters (no negation or extglobs: excludePaths says "not").
 */

/** Patterns in each list. */
export const MAX_PATH_PATTERNS = 25;
/** Characters in one pattern. */
export const MAX_PATH_PATTERN_CHARS = 200;

/** A read's path lists, as stored in its run's arguments and with its watch; empty lists: every path. */
export interface SitePaths {
  includePaths: string[];
  excludePaths: string[];
}

// posix: paths use `/` only (the main entry asks `process` for the platform); nobrace, noextglob
// and nonegate keep the dialect above even where the character checks would let a form through;
// debug makes a RegExp that cannot be built throw instead of silently matching nothing.
const PICOMATCH_OPTIONS = { nocase: true, dot: true, nobrace: true, noextglob: true, nonegate: true, debug: true } as const;

const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const UNSUPPORTED = /[{}()|\\]/;

/** `text` read as a URL's path is compared: `decodeURI`, or as written when it is not valid percent-encoding. */
export function decodedPath(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/**
 * The pattern as it is compiled: decoded, relative to the path's leading `/` (`/blog/**` is
 * `blog/**`, `/` is empty), and a pattern that does not start with `/` put under `**\/`.
 */
function relativePattern(pattern: string): string {
  const decoded = decodedPath(pattern);
  if (decoded.startsWith('/')) return decoded.slice(1);
  return decoded === '**' || decoded.startsWith('**/') ? decoded : `**/${decoded}`;
}

/** Why `pattern` is not a path pattern this dialect takes (a `must ...` sentence), or undefined. */
export function pathPatternProblem(pattern: string): string | undefined {
  const shown = JSON.stringify(pattern);
  if (!pattern.startsWith('/') && !pattern.startsWith('*')) return `must start with "/" (from the path's start) or "*" (at any depth); ${shown} does not`;
  const matchable = relativePattern(pattern);
  if (CONTROL.test(pattern) || CONTROL.test(matchable)) return `must be printable; ${shown} has a control or invisible character`;
  const unsupported = UNSUPPORTED.exec(matchable)?.[0];
  if (unsupported) {
    const why = '{}'.includes(unsupported) ? 'braces are not supported: list each alternative as its own pattern' : 'groups, alternation and backslash escapes are not supported';
    return `must not contain "${unsupported}"; ${shown} does (${why})`;
  }
  const segments = matchable.split('/');
  const globstars = segments.filter((segment) => segment === '**').length;
  if (globstars > 1) {
    const implied = pattern.startsWith('/') ? '' : ' (a pattern that does not start with "/" begins with an implied "/**/")';
    return `must have at most one "**"; ${shown} has ${globstars}${implied}`;
  }
  const crowded = segments.find((segment) => segment !== '**' && (segment.match(/\*+/g)?.length ?? 0) > 1);
  if (crowded !== undefined) return `must have at most one "*" in a segment; ${shown} has more in ${JSON.stringify(crowded)}`;
  try {
    if (matchable) picomatch.makeRe(matchable, PICOMATCH_OPTIONS);
  } catch (error) {
    return `must be a pattern picomatch can compile; ${shown} is not: ${messageOf(error)}`;
  }
  return undefined;
}

/** Whether a path (as `decodedPath` reads it, with its leading `/`) matches a pattern. */
export type PathMatcher = (path: string) => boolean;

/**
 * The matcher of a pattern `pathPatternProblem` accepts. Throws on a pattern it refuses (patterns
 * are checked when they enter).
 */
export function compilePathPattern(pattern: string): PathMatcher {
  const problem = pathPatternProblem(pattern);
  if (problem) throw new Error(`Path pattern ${problem}`);
  const relative = relativePattern(pattern);
  // picomatch refuses an empty pattern: `/` is the home page alone.
  if (!relative) return (path) => path === '/';
  const regex = picomatch.makeRe(relative, PICOMATCH_OPTIONS);
  return (path) => regex.test(path.slice(1));
}

/** Two patterns that match the same paths as written (decoded, case aside). */
function samePattern(pattern: string): string {
  return relativePattern(pattern).toLowerCase();
}

export const PathPattern = z
  .string()
  .trim()
  .min(1)
  .max(MAX_PATH_PATTERN_CHARS)
  .superRefine((pattern, ctx) => {
    const problem = pathPatternProblem(pattern);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const SYNTAX =
  '"*" matches within one path segment, "**" any number of segments (one per pattern), "?" one character, "[a-z]" a class; ' +
  'case is ignored and %-escapes are decoded; a pattern not starting with "/" matches at any depth ("*.pdf" is "**/*.pdf"); no braces.';

/** The two lists' fields, for the input schemas that take them (a read, a watch). */
export const PATH_SCOPE_FIELDS = {
  includePaths: z
    .array(PathPattern)
    .max(MAX_PATH_PATTERNS)
    .default([])
    .describe(
      `Only read pages whose path matches one of these glob patterns (at most ${MAX_PATH_PATTERNS}, each 1 to ${MAX_PATH_PATTERN_CHARS} characters starting with "/" or "*"), ` +
        `e.g. ["/blog/**", "/pricing"]; the home page "/" is read anyway, for its links. ${SYNTAX} Default: every path.`,
    ),
  excludePaths: z
    .array(PathPattern)
    .max(MAX_PATH_PATTERNS)
    .default([])
    .describe(
      `Never read pages whose path matches one of these glob patterns (at most ${MAX_PATH_PATTERNS}, same syntax as includePaths), e.g. ["/careers/**", "*.pdf"]; ` +
        'an exclude wins over an include, and may exclude the home page "/". Default: none.',
    ),
};

/** Refuses a pattern in both lists (compared decoded, case aside), at the exclude's index. */
export function refineDisjointPaths(input: { includePaths?: unknown; excludePaths?: unknown }, ctx: z.RefinementCtx): void {
  if (!Array.isArray(input.includePaths) || !Array.isArray(input.excludePaths)) return;
  const included = new Set(input.includePaths.map((pattern) => samePattern(String(pattern))));
  input.excludePaths.forEach((pattern, index) => {
    if (included.has(samePattern(String(pattern)))) {
      ctx.addIssue({ code: 'custom', path: ['excludePaths', index], message: `must not also be in includePaths: ${JSON.stringify(pattern)} is in both lists; keep it in one` });
    }
  });
}

/** The two lists alone: `{ includePaths?, excludePaths? }`, each defaulting to empty. */
export const PathScopeInput = z.strictObject(PATH_SCOPE_FIELDS).superRefine(refineDisjointPaths);
export type PathScopeInput = z.output<typeof PathScopeInput>;
