import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/fixtures.ts';
import { Browser, signUp } from './browser.ts';

describe('dashboard security headers', () => {
  it.each(['/dashboard/sign-in', '/dashboard/sign-up', '/dashboard', '/dashboard/settings/keys', '/dashboard/onboarding', '/dashboard/team', '/dashboard/runs', '/dashboard/watches', '/dashboard/approvals', '/dashboard/objects', '/dashboard/no-such-page'])(
    '%s: strict CSP, no framing, same-origin referrer, never cached, no CORS',
    async (path) => {
      const browser = new Browser();
      await signUp(browser);
      const response = await browser.get(path, { Origin: 'https://elsewhere.example' });
      const csp = response.headers.get('Content-Security-Policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(response.headers.get('X-Frame-Options')).toBe('DENY');
      expect(response.headers.get('Referrer-Policy')).toBe('same-origin');
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
    },
  );

  it("an unknown dashboard path answers the dashboard's own 404 page, signed in or out", async () => {
    const signedIn = new Browser();
    await signUp(signedIn);
    for (const browser of [new Browser(), signedIn]) {
      const response = await browser.get('/dashboard/no-such-page');
      expect(response.status).toBe(404);
      expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<title>Page not found · Recon</title>');
    }
  });

  it('pages carry no inline script: only the dashboard\'s own script file', async () => {
    const browser = new Browser();
    await signUp(browser);
    const html = await (await browser.get('/dashboard/settings/keys')).text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toMatch(/src="\/dashboard\/assets\/dashboard\.js\?v=[0-9a-f]{8}"/);
    expect(scripts[0]![2]).toBe('');
    expect(html).not.toMatch(/ on[a-z]+=/i);
    expect(html).not.toMatch(/style=/);
  });

  it('serves the stylesheet and script from the Worker, cacheable', async () => {
    const css = await new Browser().get('/dashboard/assets/dashboard.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('Content-Type')).toMatch(/^text\/css/);
    expect(css.headers.get('Cache-Control')).toBe('public, max-age=86400');
    const js = await new Browser().get('/dashboard/assets/dashboard.js');
    expect(js.headers.get('Content-Type')).toMatch(/^text\/javascript/);
    expect(await js.text()).toContain('navigator.clipboard.writeText');
  });

  it('the API keeps its open CORS for bearer requests, never with credentials', async () => {
    const preflight = await call('/api/v1/profile', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(preflight.headers.get('Access-Control-Allow-Credentials')).toBeNull();
  });

  it('the API ignores a dashboard session cookie: no key, 401', async () => {
    const browser = new Browser();
    await signUp(browser);
    const response = await browser.get('/api/v1/profile');
    expect(response.status).toBe(401);
  });

  it('redirects plain http to https except on loopback hosts, where the cookie is recon_session without Secure', async () => {
    const remote = await exports.default.fetch(new Request('http://recon.example.com/dashboard/sign-in', { redirect: 'manual' }));
    expect(remote.status).toBe(308);
    expect(remote.headers.get('Location')).toBe('https://recon.example.com/dashboard/sign-in');

    const local = await exports.default.fetch(
      new Request('http://localhost:8787/dashboard/sign-up', {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://localhost:8787', 'CF-Connecting-IP': '10.99.0.1' },
        body: new URLSearchParams({ organizationName: 'Local', name: 'Dev', email: `dev-${crypto.randomUUID()}@example.com`, password: 'a long enough password' }),
      }),
    );
    expect(local.status).toBe(303);
    const cookie = local.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^recon_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
  });
});
