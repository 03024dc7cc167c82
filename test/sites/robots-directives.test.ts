import { describe, expect, it } from 'vitest';
import { MAX_DIRECTIVES_CHARS, mergeDirectives, NO_DIRECTIVES, parseRobotsMeta, parseXRobotsTag } from '../../src/sites/robots-directives.ts';
import { SITE_READER_PRODUCT_TOKEN } from '../../src/sites/robots.ts';

const both = { noindex: true, nofollow: true };
const noindex = { noindex: true, nofollow: false };
const nofollow = { noindex: false, nofollow: true };

describe('parseRobotsMeta', () => {
  it('reads noindex and nofollow from a robots meta tag, in any case and order', () => {
    expect(parseRobotsMeta('robots', 'noindex, nofollow')).toEqual(both);
    expect(parseRobotsMeta(' ROBOTS ', 'NoFollow')).toEqual(nofollow);
    expect(parseRobotsMeta('robots', 'max-snippet:20,noindex')).toEqual(noindex);
    expect(parseRobotsMeta('robots', 'noindex nofollow')).toEqual(both);
  });

  it('reads none as both, and all, index and follow as nothing; the restrictive rule wins a conflict', () => {
    expect(parseRobotsMeta('robots', 'none')).toEqual(both);
    expect(parseRobotsMeta('robots', 'all')).toEqual(NO_DIRECTIVES);
    expect(parseRobotsMeta('robots', 'index, follow')).toEqual(NO_DIRECTIVES);
    expect(parseRobotsMeta('robots', 'index, noindex, follow')).toEqual(noindex);
  });

  it('applies the tag of our own product token, case-insensitively, and not another crawler’s', () => {
    expect(parseRobotsMeta(SITE_READER_PRODUCT_TOKEN, 'noindex')).toEqual(noindex);
    expect(parseRobotsMeta('reconbot', 'none')).toEqual(both);
    expect(parseRobotsMeta('googlebot', 'noindex, nofollow')).toEqual(NO_DIRECTIVES);
    expect(parseRobotsMeta('description', 'noindex')).toEqual(NO_DIRECTIVES);
  });

  it('gives nothing for a missing name or content, and never a word that merely contains a rule', () => {
    expect(parseRobotsMeta(null, 'noindex')).toEqual(NO_DIRECTIVES);
    expect(parseRobotsMeta('robots', null)).toEqual(NO_DIRECTIVES);
    expect(parseRobotsMeta('robots', '')).toEqual(NO_DIRECTIVES);
    expect(parseRobotsMeta('robots', 'noindexing, xnofollow, nonexistent')).toEqual(NO_DIRECTIVES);
  });

  it('reads only the first few KiB of megabytes of content', () => {
    const padding = 'index, '.repeat(1_000_000);
    expect(parseRobotsMeta('robots', `${padding}noindex`)).toEqual(NO_DIRECTIVES);
    expect(parseRobotsMeta('robots', `noindex, ${padding}`)).toEqual(noindex);
    const atTheBound = `${' '.repeat(MAX_DIRECTIVES_CHARS - 'nofollow'.length)}nofollow`;
    expect(parseRobotsMeta('robots', atTheBound)).toEqual(nofollow);
    expect(parseRobotsMeta('robots', ` ${atTheBound}`)).toEqual(NO_DIRECTIVES);
  });

  it('returns a fresh object each time (NO_DIRECTIVES stays unchanged)', () => {
    const result = parseRobotsMeta('robots', 'all');
    result.noindex = true;
    expect(NO_DIRECTIVES).toEqual({ noindex: false, nofollow: false });
    expect(Object.isFrozen(NO_DIRECTIVES)).toBe(true);
  });
});

describe('parseXRobotsTag', () => {
  it('reads a comma list, none and all', () => {
    expect(parseXRobotsTag('noindex, nofollow')).toEqual(both);
    expect(parseXRobotsTag('NOINDEX')).toEqual(noindex);
    expect(parseXRobotsTag('none')).toEqual(both);
    expect(parseXRobotsTag('all')).toEqual(NO_DIRECTIVES);
    expect(parseXRobotsTag(null)).toEqual(NO_DIRECTIVES);
    expect(parseXRobotsTag('')).toEqual(NO_DIRECTIVES);
  });

  it('ignores rules scoped to another crawler', () => {
    expect(parseXRobotsTag('googlebot: noindex')).toEqual(NO_DIRECTIVES);
    expect(parseXRobotsTag('otherbot: noindex, nofollow')).toEqual(NO_DIRECTIVES);
    expect(parseXRobotsTag('googlebot:none')).toEqual(NO_DIRECTIVES);
  });

  it('applies rules scoped to our product token, case-insensitively', () => {
    expect(parseXRobotsTag('reconbot: noindex')).toEqual(noindex);
    expect(parseXRobotsTag(`${SITE_READER_PRODUCT_TOKEN}: noindex, nofollow`)).toEqual(both);
  });

  it('reads several headers joined by the Fetch API: each user agent scopes the items up to the next one', () => {
    const headers = new Headers();
    headers.append('X-Robots-Tag', 'nofollow');
    headers.append('X-Robots-Tag', 'googlebot: noindex');
    headers.append('X-Robots-Tag', 'ReconBot: noindex');
    expect(parseXRobotsTag(headers.get('x-robots-tag'))).toEqual(both);
    expect(parseXRobotsTag('googlebot: noindex, nofollow, reconbot: all')).toEqual(NO_DIRECTIVES);
    expect(parseXRobotsTag('noindex, googlebot: nofollow')).toEqual(noindex);
  });

  it('does not take rules with a value (unavailable_after, max-snippet) for user agents', () => {
    expect(parseXRobotsTag('unavailable_after: Friday, 25 Jun 2010 15:00:00 PST, noindex')).toEqual(noindex);
    expect(parseXRobotsTag('max-snippet: 20, nofollow')).toEqual(nofollow);
    expect(parseXRobotsTag('googlebot: max-snippet: 20, noindex')).toEqual(NO_DIRECTIVES);
  });

  it('reads only the first few KiB of a header of megabytes', () => {
    expect(parseXRobotsTag(`${'all, '.repeat(1_000_000)}noindex`)).toEqual(NO_DIRECTIVES);
    expect(parseXRobotsTag(`none, ${'x: y, '.repeat(1_000_000)}`)).toEqual(both);
  });
});

describe('mergeDirectives', () => {
  it('forbids what any source forbids', () => {
    expect(mergeDirectives()).toEqual(NO_DIRECTIVES);
    expect(mergeDirectives(NO_DIRECTIVES, noindex)).toEqual(noindex);
    expect(mergeDirectives(noindex, nofollow, NO_DIRECTIVES)).toEqual(both);
    expect(mergeDirectives(parseXRobotsTag('googlebot: none'), parseRobotsMeta('robots', 'nofollow'))).toEqual(nofollow);
  });
});
