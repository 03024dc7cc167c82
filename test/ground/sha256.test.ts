import { describe, expect, it } from 'vitest';
import { sha256, sha256Hex } from '../../src/ground/sha256.ts';

describe('sha256', () => {
  it('digests text in UTF-8: the FIPS 180-2 vectors, and é as its two bytes', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('\u00e9')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
    expect(await sha256('abc')).toHaveLength(32);
  });
});
