import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, fromBase64url, percentEncode, toBase64, toBase64url, toHex } from '../../src/ground/encoding.ts';

describe('encoding', () => {
  it('writes bytes as two lower-case hex digits each', () => {
    expect(toHex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe('00010f10abff');
    expect(toHex(new Uint8Array())).toBe('');
  });

  it('writes base64 with padding and base64url without, as RFC 4648 says', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf, 0x61]);
    expect(toBase64(bytes)).toBe('+/+/YQ==');
    expect(toBase64url(bytes)).toBe('-_-_YQ');
    expect(toBase64(new TextEncoder().encode('foobar'))).toBe('Zm9vYmFy');
  });

  it('reads back what it wrote, and refuses what is not its alphabet', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(fromBase64(toBase64(bytes))).toEqual(bytes);
        expect(fromBase64url(toBase64url(bytes))).toEqual(bytes);
      }),
    );
    expect(fromBase64('not base64!')).toBeUndefined();
    expect(fromBase64url('+/+/YQ')).toBeUndefined();
    expect(fromBase64url('a')).toBeUndefined();
  });

  it('percent-encodes text byte by byte as UTF-8, and decodeURIComponent reads it back', () => {
    expect(percentEncode('(')).toBe('%28');
    expect(percentEncode('é\n')).toBe('%C3%A9%0A');
    expect(percentEncode('')).toBe('');
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => decodeURIComponent(percentEncode(text)) === text));
  });
});
