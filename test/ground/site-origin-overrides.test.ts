import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/ground/config.ts';

const overrides = (value: string | undefined) => readConfig({ ...env, SITE_ORIGIN_OVERRIDES: value } as unknown as Env).SITE_ORIGIN_OVERRIDES;

describe('SITE_ORIGIN_OVERRIDES', () => {
  it('is empty unless set (wrangler.toml never sets it)', () => {
    expect(overrides(undefined).size).toBe(0);
    expect(overrides('').size).toBe(0);
  });

  it('maps each domain, normalized, to its loopback origin', () => {
    const map = overrides(' Globex.com=http://127.0.0.1:9300 , www.acme.com=http://localhost:9301/,initech.com=https://[::1]:9302');
    expect([...map]).toEqual([
      ['globex.com', 'http://127.0.0.1:9300'],
      ['acme.com', 'http://localhost:9301'],
      ['initech.com', 'https://[::1]:9302'],
    ]);
  });

  it.each([
    ['globex.com=http://10.0.0.8:9300', 'a private address is not loopback'],
    ['globex.com=http://globex.example:9300', 'a public host'],
    ['globex.com=http://127.0.0.1:9300/site', 'an origin with a path'],
    ['globex.com=ftp://127.0.0.1', 'another scheme'],
    ['127.0.0.1=http://127.0.0.1:9300', 'an IP address as the domain'],
    ['globex.com', 'no origin'],
  ])('refuses %s (%s), naming the variable', (value) => {
    expect(() => overrides(value)).toThrow(/SITE_ORIGIN_OVERRIDES: ".*" is not domain=origin with a loopback origin/);
  });
});
