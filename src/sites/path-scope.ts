import { compilePathPattern, decodedPath, type PathMatcher, type SitePaths } from '../ground/schemas/path-scope.ts';

/**
 * A read's path scope: which URLs of the site it may request, from its `includePaths` and
 * `excludePaths` (the dialect, its limits and the schema are in ground/schemas/path-scope.ts).
 *
 * A URL is read when its path matches some include pattern (or there are none) and no exclude
 * pattern. The home page `/` is read whatever the includes say: the read starts there, its links
 * lead to the included pages and the company step takes the company's name from it; only an
 * exclude pattern that matches `/` (such as `/**` or `/`) keeps it out. A path's trailing `/` is
 * optional to a pattern: `/pricing` matches `/pricing/` too. Pure: no I/O, nothing stored.
 */

export interface PathScope {
  /** Whether the read may request `url` (absolute, or a path); false for text that is no URL. */
  allows(url: string): boolean;
  /** The scope in words for a report: `every path`, `the home page and paths matching /blog/**, except ...`. */
  describe(): string;
}

// Any URL's path is read against this base, so a bare path is taken as given.
const PATH_BASE = 'https://path-scope.invalid';

/** The forms of `url`'s path the patterns are tested on: decoded, and without its trailing `/` too. */
function pathForms(url: string): string[] | undefined {
  if (!URL.canParse(url, PATH_BASE)) return undefined;
  const path = decodedPath(new URL(url, PATH_BASE).pathname);
  return path.length > 1 && path.endsWith('/') ? [path, path.slice(0, -1)] : [path];
}

function anyMatches(patterns: readonly PathMatcher[], forms: readonly string[]): boolean {
  return patterns.some((matches) => forms.some(matches));
}

/** `a`, `a or b`, `a, b or c`. */
function orList(patterns: readonly string[]): string {
  return patterns.length <= 1 ? patterns.join('') : `${patterns.slice(0, -1).join(', ')} or ${patterns.at(-1)}`;
}

/**
 * Compiles a read's lists (checked by PathScopeInput when they entered) into its scope. Throws on
 * a pattern the dialect refuses.
 */
export function compilePathScope(paths: Partial<SitePaths>): PathScope {
  const include = paths.includePaths ?? [];
  const exclude = paths.excludePaths ?? [];
  const included = include.map(compilePathPattern);
  const excluded = exclude.map(compilePathPattern);
  const homeRead = !anyMatches(excluded, ['/']);

  function allows(url: string): boolean {
    const forms = pathForms(url);
    if (!forms || anyMatches(excluded, forms)) return false;
    if (forms[0] === '/' || included.length === 0) return true;
    return anyMatches(included, forms);
  }

  function describe(): string {
    const except = exclude.length ? `, except those matching ${orList(exclude)}` : '';
    if (include.length === 0) return exclude.length ? `every path${except}` : 'every path';
    return `${homeRead ? 'the home page and ' : ''}paths matching ${orList(include)}${except}`;
  }

  return { allows, describe };
}
