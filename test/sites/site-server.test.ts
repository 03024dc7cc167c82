/**
 * The fixture sites as the Workers pool reaches them: served on loopback by vitest.config.ts,
 * named in the Worker's SITE_ORIGIN_OVERRIDES, their control paths usable from workerd over HTTP
 * (test/helpers/sites.ts). It requests pages of SERVER_CHECK_DOMAIN only, a site no other file reads,
 * so the request logs other files check never see its requests.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/ground/config.ts';
import { siteLog, siteOrigin, setSitePage, removeSitePage } from '../helpers/sites.ts';
import { fixtureSites, HOSTILE_DOMAIN, OFFLINE_DOMAIN, POLITE_DOMAIN, pricingSentence, PRICE_BEFORE, SERVER_CHECK_DOMAIN, SLOW_DOMAIN } from './fixture-sites.ts';

const domain = SERVER_CHECK_DOMAIN;

describe('fixture sites', () => {
  it('are every one in SITE_ORIGIN_OVERRIDES at the origin tests control, and the offline one on a loopback port', () => {
    const overrides = readConfig(env).SITE_ORIGIN_OVERRIDES;
    for (const site of Object.keys(fixtureSites())) expect(overrides.get(site), site).toBe(siteOrigin(site));
    expect(overrides.get(OFFLINE_DOMAIN)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((env as unknown as Record<string, unknown>).SITE_READ_MIN_DELAY_MS).toBe('0');
    expect([POLITE_DOMAIN, HOSTILE_DOMAIN, SLOW_DOMAIN].every((site) => overrides.has(site))).toBe(true);
  });

  it('serve their pages to workerd with validators, answer 304, log the request and change a page over HTTP', async () => {
    const origin = siteOrigin(domain);
    const pricing = await fetch(`${origin}/pricing`);
    expect(await pricing.text()).toContain(pricingSentence(PRICE_BEFORE));
    expect(pricing.headers.get('etag')).toMatch(/^"[\w-]+"$/);

    const probe = `/probe/${crypto.randomUUID()}`;
    await setSitePage(domain, probe, '<p>first</p>');
    const first = await fetch(`${origin}${probe}`, { headers: { 'user-agent': 'ReconBot/1.0' } });
    expect(await first.text()).toBe('<p>first</p>');
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const again = await fetch(`${origin}${probe}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);

    await setSitePage(domain, probe, '<p>second</p>');
    const changed = await fetch(`${origin}${probe}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect([changed.status, await changed.text()]).toEqual([200, '<p>second</p>']);
    await removeSitePage(domain, probe);
    expect((await fetch(`${origin}${probe}`)).status).toBe(404);

    const mine = (await siteLog(domain)).requests.filter((request) => request.path === probe);
    expect(mine.map((request) => request.status)).toEqual([200, 304, 200, 404]);
    expect(mine[0]).toMatchObject({ method: 'GET', userAgent: 'ReconBot/1.0' });
    expect(mine[1]!.ifNoneMatch).toBe(first.headers.get('etag'));
  });
});
