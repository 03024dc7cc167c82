import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/ground/config.ts';

const overrides = (value: string | undefined) => readConfig({ ...env, SITE_ORIGIN_OVERRIDES: value } as unknown as Env).SITE_ORIGIN_OVERRIDES;

describe('SITE_ORIGIN_OVERRIDES', () => {
  it('is empty unless set (wrangler.toml never sets it)', () => {
    expect(overrides(undefined).size).toBe(0);
    expect(overrides('').size).toBe(0);
  });

  it('maps each host, in lower case, to its loopback origin; www. is a host of its own', () => {
    const map = overrides(' Globex.com=http://127.0.0.1:9300 , www.globex.com=http://localhost:9301/,initech.com.=https://[::1]:9302,boards-api.greenhouse.io=http://127.0.0.1:9303');
    expect([...map]).toEqual([
      ['globex.com', 'http://127.0.0.1:9300'],
      ['www.globex.com', 'http://localhost:9301'],
      ['initech.com', 'https://[::1]:9302'],
      ['boards-api.greenhouse.io', 'http://127.0.0.1:9303'],
    ]);
  });

  it.each([
    ['globex.com=http://10.0.0.8:9300', 'a private address is not loopback'],
    ['globex.com=http://globex.example:9300', 'a public host'],
    ['globex.com=http://127.0.0.1:9300/site', 'an origin with a path'],
    ['globex.com=ftp://127.0.0.1', 'another scheme'],
    ['127.0.0.1=http://127.0.0.1:9300', 'an IP address as the host'],
    ['globex.com', 'no origin'],
  ])('refuses %s (%s), naming the variable', (value) => {
    expect(() => overrides(value)).toThrow(/SITE_ORIGIN_OVERRIDES: ".*" is not host=origin with a loopback origin/);
  });
});
