import { describe, expect, it } from 'vitest';
import { laterBookmark, MAX_BOOKMARK_CHARS, readClientBookmark } from '../../src/ground/db-session.ts';
import { DomainError } from '../../src/ground/errors.ts';

/** A bookmark a client sends is hostile input: bounded in length, checked in shape, refused as 400 invalid_input otherwise. */

const D1_BOOKMARK = '00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683';

function refusal(value: unknown): DomainError {
  try {
    readClientBookmark(value, 'X-Recon-Bookmark');
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
}

describe('a bookmark a client sends', () => {
  it('is none when absent', () => {
    expect(readClientBookmark(undefined, 'X-Recon-Bookmark')).toBeNull();
    expect(readClientBookmark(null, 'X-Recon-Bookmark')).toBeNull();
  });

  it("is taken when it has D1's shape, up to the length bound", () => {
    expect(readClientBookmark(D1_BOOKMARK, 'X-Recon-Bookmark')).toBe(D1_BOOKMARK);
    const longest = `${'0'.repeat(MAX_BOOKMARK_CHARS - 2)}-f`;
    expect(readClientBookmark(longest, 'X-Recon-Bookmark')).toBe(longest);
  });

  it.each([
    ['one character over the bound', `${'0'.repeat(MAX_BOOKMARK_CHARS - 1)}-f`],
    ['a megabyte', 'a'.repeat(1 << 20)],
    ['empty', ''],
    ['upper case hex', D1_BOOKMARK.toUpperCase()],
    ['a leading hyphen', `-${D1_BOOKMARK}`],
    ['two hyphens in a row', '0000--0000'],
    ['a constraint', 'first-primary'],
    ['spaces', ` ${D1_BOOKMARK}`],
    ['a header injection', `${D1_BOOKMARK}\r\nX-Evil: 1`],
    ['a number', 123],
    ['an object', { bookmark: D1_BOOKMARK }],
  ])('is refused with 400 invalid_input when it is %s', (_case, value) => {
    const error = refusal(value);
    expect(error.code).toBe('invalid_input');
    expect(error.status).toBe(400);
    expect(error.details).toEqual([expect.objectContaining({ path: 'X-Recon-Bookmark' })]);
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('the later of two bookmarks', () => {
  it('orders them as D1 does (as strings), either way round, and takes one when the other is missing', () => {
    const earlier = '00000000-00000014-00000000-00000000000000000000000000000000';
    const later = '00000000-00000019-00000000-00000000000000000000000000000000';
    expect(laterBookmark(earlier, later)).toBe(later);
    expect(laterBookmark(later, earlier)).toBe(later);
    expect(laterBookmark(null, earlier)).toBe(earlier);
    expect(laterBookmark(earlier, null)).toBe(earlier);
    expect(laterBookmark(null, null)).toBeNull();
  });
});
