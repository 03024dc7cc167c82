import { describe, expect, it } from 'vitest';
import { MAX_PATH_PATTERN_CHARS, MAX_PATH_PATTERNS, pathPatternProblem, PathScopeInput } from '../../src/ground/schemas/path-scope.ts';
import { checkInput } from '../../src/ground/validation.ts';
import { compilePathScope } from '../../src/sites/path-scope.ts';

/**
 * Path scopes (src/sites/path-scope.ts) and their patterns (src/ground/schemas/path-scope.ts). These
 * run inside workerd, so they also prove picomatch's posix entry works there.
 */

const SITE = 'https://globex.com';
const allowed = (scope: ReturnType<typeof compilePathScope>, paths: string[]) => paths.filter((path) => scope.allows(`${SITE}${path}`));

/** The detail paths checkInput reports for `raw`, or [] when it is accepted. */
function refusedPaths(raw: unknown): string[] {
  const result = checkInput(PathScopeInput, raw, 'paths');
  return result.success ? [] : result.details.map((detail) => detail.path);
}

function messageOf(raw: unknown): string {
  const result = checkInput(PathScopeInput, raw, 'paths');
  if (result.success) throw new Error('accepted');
  return result.details.map((detail) => detail.message).join('; ');
}

describe('compilePathScope: which URLs a read may request', () => {
  it('allows every path when no list is given', () => {
    const scope = compilePathScope({});
    expect(allowed(scope, ['/', '/blog/a', '/careers', '/x.pdf'])).toEqual(['/', '/blog/a', '/careers', '/x.pdf']);
    expect(scope.describe()).toBe('every path');
  });

  it('with includes only: the paths they match, and the home page', () => {
    const scope = compilePathScope({ includePaths: ['/blog/**', '/pricing'] });
    expect(allowed(scope, ['/', '/blog', '/blog/', '/blog/2026/launch', '/pricing', '/pricing/', '/pricing/team', '/careers', '/blogger'])).toEqual([
      '/',
      '/blog',
      '/blog/',
      '/blog/2026/launch',
      '/pricing',
      '/pricing/',
    ]);
    expect(scope.describe()).toBe('the home page and paths matching /blog/** or /pricing');
  });

  it('with excludes only: every path they do not match', () => {
    const scope = compilePathScope({ excludePaths: ['/careers/**', '**/*.pdf'] });
    expect(allowed(scope, ['/', '/careers', '/careers/eng/1', '/docs/guide.pdf', '/guide.pdf', '/pdf', '/about'])).toEqual(['/', '/pdf', '/about']);
    expect(scope.describe()).toBe('every path, except those matching /careers/** or **/*.pdf');
  });

  it('with both: included and not excluded (an exclude wins)', () => {
    const scope = compilePathScope({ includePaths: ['/docs/**'], excludePaths: ['/docs/*/changelog', '*.pdf'] });
    expect(allowed(scope, ['/docs', '/docs/api', '/docs/v2/changelog', '/docs/v2/changelog/', '/docs/a/b/changelog', '/docs/manual.pdf', '/blog'])).toEqual([
      '/docs',
      '/docs/api',
      '/docs/a/b/changelog',
    ]);
    expect(scope.describe()).toBe('the home page and paths matching /docs/**, except those matching /docs/*/changelog or *.pdf');
  });

  it('reads the home page whatever the includes say, and in whatever form the URL writes it', () => {
    const scope = compilePathScope({ includePaths: ['/blog/**'] });
    expect(scope.allows('https://globex.com')).toBe(true);
    expect(scope.allows('https://globex.com/')).toBe(true);
    expect(scope.allows('https://globex.com/?ref=nav#top')).toBe(true);
    expect(scope.allows('https://globex.com/index.html')).toBe(false);
  });

  it('leaves the home page out only when an exclude pattern matches "/"', () => {
    expect(compilePathScope({ excludePaths: ['/'] }).allows(`${SITE}/`)).toBe(false);
    expect(compilePathScope({ excludePaths: ['/'] }).allows(`${SITE}/about`)).toBe(true);
    expect(compilePathScope({ excludePaths: ['/**'] }).allows(`${SITE}/`)).toBe(false);
    // `*` needs at least one character: /* leaves out /about but not the home page.
    const star = compilePathScope({ excludePaths: ['/*'] });
    expect(allowed(star, ['/', '/about', '/docs/a'])).toEqual(['/', '/docs/a']);
    const scoped = compilePathScope({ includePaths: ['/blog/**'], excludePaths: ['/'] });
    expect(scoped.allows(`${SITE}/`)).toBe(false);
    expect(scoped.describe()).toBe('paths matching /blog/**, except those matching /');
  });

  it('ignores case in patterns and paths', () => {
    const scope = compilePathScope({ includePaths: ['/Pricing'], excludePaths: ['/BLOG/**'] });
    expect(allowed(scope, ['/pricing', '/PRICING', '/Pricing/', '/blog/a', '/Blog'])).toEqual(['/pricing', '/PRICING', '/Pricing/']);
  });

  it('matches the path alone: no query, no fragment', () => {
    const scope = compilePathScope({ includePaths: ['/pricing'], excludePaths: ['**/*.pdf'] });
    expect(scope.allows(`${SITE}/pricing?plan=team&x=/a.pdf#faq`)).toBe(true);
    expect(scope.allows(`${SITE}/search?q=pricing`)).toBe(false);
  });

  it('compares %-encoded paths decoded, in the URL and in the pattern alike', () => {
    const spaced = compilePathScope({ includePaths: ['/case studies/**'] });
    expect(spaced.allows(`${SITE}/case%20studies/acme`)).toBe(true);
    expect(spaced.allows(`${SITE}/case studies/acme`)).toBe(true);
    const encoded = compilePathScope({ includePaths: ['/case%20studies/**', '/%C3%BCber-uns'] });
    expect(encoded.allows(`${SITE}/case%20studies/acme`)).toBe(true);
    expect(encoded.allows(`${SITE}/über-uns`)).toBe(true);
    expect(encoded.allows(`${SITE}/%C3%9Cber-uns`)).toBe(true);
  });

  it('keeps an encoded slash (%2F) inside its segment, as the server sees it', () => {
    const docs = compilePathScope({ includePaths: ['/docs/*'] });
    expect(docs.allows(`${SITE}/docs/a%2Fb`)).toBe(true);
    expect(docs.allows(`${SITE}/docs/a/b`)).toBe(false);
    const noPrivate = compilePathScope({ excludePaths: ['/private/**'] });
    expect(noPrivate.allows(`${SITE}/private%2Fkeys`)).toBe(true);
    expect(noPrivate.allows(`${SITE}/private/keys`)).toBe(false);
    // Dot segments are resolved by the URL parser, encoded or not, before any pattern sees the path.
    expect(noPrivate.allows(`${SITE}/docs/%2E%2E/private/keys`)).toBe(false);
  });

  it('matches a path that is not valid percent-encoding as written, the same as its valid encoding', () => {
    const scope = compilePathScope({ includePaths: ['/100%'] });
    expect(scope.allows(`${SITE}/100%`)).toBe(true);
    expect(scope.allows(`${SITE}/100%25`)).toBe(true);
    expect(scope.allows(`${SITE}/100`)).toBe(false);
  });

  it('matches a pattern that does not start with "/" at any depth', () => {
    const scope = compilePathScope({ excludePaths: ['*.pdf', '*/changelog'] });
    expect(allowed(scope, ['/a.pdf', '/docs/v1/guide.pdf', '/changelog', '/docs/changelog', '/docs/v1/changelog', '/docs/v1'])).toEqual(['/changelog', '/docs/v1']);
  });

  it('lets /**/ stand for no segment too', () => {
    const scope = compilePathScope({ includePaths: ['/**/pricing', '/docs/**/api'] });
    expect(allowed(scope, ['/pricing', '/en/pricing', '/en/us/pricing', '/docs/api', '/docs/v1/api', '/pricing-old'])).toEqual([
      '/pricing',
      '/en/pricing',
      '/en/us/pricing',
      '/docs/api',
      '/docs/v1/api',
    ]);
  });

  it('lets * and ** match segments that start with a dot', () => {
    const scope = compilePathScope({ excludePaths: ['/**'], includePaths: [] });
    expect(scope.allows(`${SITE}/.well-known/security.txt`)).toBe(false);
    expect(compilePathScope({ includePaths: ['/*/security.txt'] }).allows(`${SITE}/.well-known/security.txt`)).toBe(true);
  });

  it('takes a bare path too, and refuses text that is no URL', () => {
    const scope = compilePathScope({ includePaths: ['/blog/**'] });
    expect(scope.allows('/blog/a')).toBe(true);
    expect(scope.allows('/careers')).toBe(false);
    expect(scope.allows('http://[')).toBe(false);
  });

  it('treats a character class and ? as one character', () => {
    const scope = compilePathScope({ includePaths: ['/v[0-9]/docs', '/page-?'] });
    expect(allowed(scope, ['/v1/docs', '/v10/docs', '/page-2', '/page-22', '/page-'])).toEqual(['/v1/docs', '/page-2']);
  });

  it('throws on a pattern the dialect refuses (stored lists were checked when they entered)', () => {
    expect(() => compilePathScope({ includePaths: ['/{a,b}'] })).toThrow(/must not contain "\{"/);
  });

  it('matches the longest hostile paths against the most complex patterns allowed and stays quick (the test timeout is the bound)', () => {
    const scope = compilePathScope({
      includePaths: Array.from({ length: MAX_PATH_PATTERNS }, (_, i) => `/**/*a/a*/?/*a${'/*'.repeat(i)}x`),
      excludePaths: Array.from({ length: MAX_PATH_PATTERNS }, (_, i) => `*a/*/${'a/'.repeat(i)}[a]*x`),
    });
    const hostile = [
      `/${'a'.repeat(2_040)}`,
      `/${'a/'.repeat(1_020)}`,
      `/${'aa/'.repeat(680)}`,
      `/${'a'.repeat(1_000)}/${'a'.repeat(1_000)}`,
      `/${`${'a'.repeat(30)}/`.repeat(65)}`,
      `/${'a.'.repeat(1_020)}`,
    ];
    // No include matches (none of these paths has an x): every pattern is tried to its end, the slowest case.
    for (const path of hostile) expect(scope.allows(`${SITE}${path}`)).toBe(false);
  });
});

describe('PathScopeInput: the lists a read or a watch takes', () => {
  it('accepts no lists, empty lists, and lists at their bounds', () => {
    expect(checkInput(PathScopeInput, {}, 'paths')).toEqual({ success: true, data: { includePaths: [], excludePaths: [] } });
    const full = Array.from({ length: MAX_PATH_PATTERNS }, (_, i) => `/section-${i}/**`);
    const long = `/${'a'.repeat(MAX_PATH_PATTERN_CHARS - 1)}`;
    expect(refusedPaths({ includePaths: full, excludePaths: [long, '**/*.pdf', '*', '/'] })).toEqual([]);
  });

  it('trims a pattern', () => {
    expect(checkInput(PathScopeInput, { includePaths: ['  /blog/** '] }, 'paths')).toMatchObject({ success: true, data: { includePaths: ['/blog/**'] } });
  });

  it('refuses more than 25 patterns in a list, naming the list', () => {
    const many = Array.from({ length: MAX_PATH_PATTERNS + 1 }, (_, i) => `/p${i}`);
    expect(refusedPaths({ includePaths: many })).toEqual(['includePaths']);
    expect(refusedPaths({ excludePaths: many })).toEqual(['excludePaths']);
  });

  it('refuses an empty pattern and one over 200 characters, naming it', () => {
    expect(refusedPaths({ includePaths: ['/ok', ''] })).toEqual(['includePaths.1']);
    expect(refusedPaths({ excludePaths: ['   '] })).toEqual(['excludePaths.0']);
    expect(refusedPaths({ includePaths: [`/${'a'.repeat(MAX_PATH_PATTERN_CHARS)}`] })).toEqual(['includePaths.0']);
  });

  it('refuses a list that is not a list of strings, and an unknown field', () => {
    expect(refusedPaths({ includePaths: '/blog/**' })).toEqual(['includePaths']);
    expect(refusedPaths({ includePaths: [42] })).toEqual(['includePaths.0']);
    expect(refusedPaths({ includePaths: [], paths: [] })).toEqual(['paths']);
  });

  it('refuses a pattern that starts with neither "/" nor "*"', () => {
    expect(messageOf({ includePaths: ['blog/**'] })).toMatch(/includePaths\.0 must start with "\/".*"blog\/\*\*" does not/);
    expect(refusedPaths({ includePaths: ['?x'] })).toEqual(['includePaths.0']);
    expect(refusedPaths({ includePaths: ['https://globex.com/blog'] })).toEqual(['includePaths.0']);
  });

  it('refuses control and invisible characters, written or %-encoded', () => {
    for (const pattern of ['/a\u0000b', '/a\tb', '/a\nb', '/a\u200bb', '/a%00b', '/a%0Ab', '/a\u2028b']) {
      expect(messageOf({ includePaths: [pattern] }), pattern).toMatch(/includePaths\.0 must be printable/);
    }
  });

  it('refuses braces, naming the pattern and what to do instead', () => {
    const explosion = `/${'{a,b}'.repeat(30)}`;
    expect(messageOf({ includePaths: [explosion] })).toMatch(/must not contain "\{".*braces are not supported: list each alternative as its own pattern/);
    expect(refusedPaths({ excludePaths: ['/{1..9999999}'] })).toEqual(['excludePaths.0']);
    expect(refusedPaths({ excludePaths: ['/a%7Bb,c%7D'] })).toEqual(['excludePaths.0']);
  });

  it('refuses groups, alternation and backslash escapes', () => {
    for (const pattern of ['/(a|aa)*', '/a|/b', '/+(a|b)', '/a\\*b']) {
      expect(messageOf({ excludePaths: [pattern] }), pattern).toMatch(/excludePaths\.0 must not contain/);
    }
  });

  it('refuses more than one ** in a pattern, counting the one implied before a pattern without a leading "/"', () => {
    expect(messageOf({ includePaths: ['/**/**/**/**/x'] })).toMatch(/must have at most one "\*\*"; "\/\*\*\/\*\*\/\*\*\/\*\*\/x" has 4/);
    expect(messageOf({ includePaths: ['/**/a/**/x'] })).toMatch(/has 2/);
    expect(messageOf({ includePaths: ['*/docs/**'] })).toMatch(/has 2 \(a pattern that does not start with "\/" begins with an implied "\/\*\*\/"\)/);
    expect(refusedPaths({ includePaths: ['**/docs/*', '/docs/**'] })).toEqual([]);
  });

  it('refuses more than one * in a segment', () => {
    expect(messageOf({ includePaths: ['/*a*a*a*x'] })).toMatch(/must have at most one "\*" in a segment; "\/\*a\*a\*a\*x" has more in "\*a\*a\*a\*x"/);
    expect(refusedPaths({ includePaths: ['/compare/*-vs-*'] })).toEqual(['includePaths.0']);
    expect(refusedPaths({ includePaths: ['/a**b', '/*/*/*/*'] })).toEqual([]);
  });

  it('refuses a pattern picomatch cannot compile, naming it and why', () => {
    expect(messageOf({ includePaths: ['/[z-a]'] })).toMatch(/includePaths\.0 must be a pattern picomatch can compile; "\/\[z-a\]" is not: .*Range out of order/);
  });

  it('refuses a pattern in both lists, compared decoded and case aside, at the exclude', () => {
    expect(messageOf({ includePaths: ['/blog/**'], excludePaths: ['/pdf', '/Blog/**'] })).toMatch(
      /excludePaths\.1 must not also be in includePaths: "\/Blog\/\*\*" is in both lists; keep it in one/,
    );
    expect(refusedPaths({ includePaths: ['/case studies'], excludePaths: ['/case%20studies'] })).toEqual(['excludePaths.0']);
    expect(refusedPaths({ includePaths: ['*.pdf'], excludePaths: ['**/*.pdf'] })).toEqual(['excludePaths.0']);
  });

  it('names each offending pattern in its own detail', () => {
    expect(refusedPaths({ includePaths: ['/ok', 'bad', '/{x}'], excludePaths: ['/**/**'] })).toEqual(['includePaths.1', 'includePaths.2', 'excludePaths.0']);
  });

  it('pathPatternProblem accepts the patterns the docs show', () => {
    for (const pattern of ['/blog/**', '/pricing', '/docs/*/changelog', '**/*.pdf', '*.pdf', '/', '**', '/v[0-9]/*', '/page-?', "/a!b+c@d$e&f'g,h;i=j:k~l"]) {
      expect(pathPatternProblem(pattern), pattern).toBeUndefined();
    }
  });
});
