import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey, parseScopes } from '../../src/ground/api-key.ts';

describe('API keys', () => {
  it('generates rk_live_ keys of 43 base62 characters that look like keys', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^rk_live_[0-9A-Za-z]{43}$/);
      expect(looksLikeApiKey(key)).toBe(true);
    }
  });

  it('accepts the demo key shapes and rejects others', () => {
    expect(looksLikeApiKey('rk_test_acme_0000000000000000000000000000')).toBe(true);
    expect(looksLikeApiKey('rk_test_globex_00000000000000000000000000')).toBe(true);
    expect(looksLikeApiKey('sk_live_abc')).toBe(false);
    expect(looksLikeApiKey('rk_live_short')).toBe(false);
    expect(looksLikeApiKey("rk_live_0000000000000000' OR 1=1")).toBe(false);
  });

  it('hashes with SHA-256 (hex) and shows only a short prefix', async () => {
    expect(await hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(displayPrefix('rk_live_ABCDEFGHIJ')).toBe('rk_live_ABCD…');
  });

  it('parses scope lists and names unknown scopes', () => {
    expect(parseScopes('oms:read, commands')).toEqual({ scopes: ['commands', 'oms:read'], unknown: [] });
    expect(parseScopes('commands oms:delete')).toEqual({ scopes: ['commands'], unknown: ['oms:delete'] });
  });
});
