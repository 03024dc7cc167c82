import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { hashSecretToken } from '../../src/auth/secret-token.ts';
import { Browser, count, PASSWORD, signUp } from './browser.ts';

async function signIn(browser: Browser, email: string, password = PASSWORD, next?: string) {
  return browser.post('/dashboard/sign-in', { email, password, ...(next ? { next } : {}) });
}

describe('dashboard sessions', () => {
  it('sends pages behind sign-in to the sign-in page, and back after signing in', async () => {
    const { email } = await signUp(new Browser());
    const browser = new Browser();
    const page = await browser.get('/dashboard/settings/keys');
    expect(page.status).toBe(303);
    expect(page.headers.get('Location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fsettings%2Fkeys');
    const signedIn = await signIn(browser, email, PASSWORD, '/dashboard/settings/keys');
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('Location')).toBe('/dashboard/settings/keys');
    expect((await browser.get('/dashboard/settings/keys')).status).toBe(200);
  });

  it('never redirects off the dashboard after sign-in', async () => {
    const { email } = await signUp(new Browser());
    for (const next of ['https://evil.example/', '//evil.example/dashboard', '/api/v1/profile', '/dashboard\\@evil.example']) {
      const browser = new Browser();
      const response = await signIn(browser, email, PASSWORD, next);
      expect(response.headers.get('Location')).toBe('/dashboard');
    }
  });

  it('rotates the session on sign-in: the token the browser had stops working', async () => {
    const browser = new Browser();
    const { email } = await signUp(browser);
    const before = browser.sessionToken!;
    expect((await signIn(browser, email)).status).toBe(303);
    const after = browser.sessionToken!;
    expect(after).not.toBe(before);
    expect(await count('SELECT count(*) AS n FROM sessions WHERE token_hash = ?', await hashSecretToken(before))).toBe(0);

    const stale = new Browser();
    stale.cookies.set('__Host-recon_session', before);
    const page = await stale.get('/dashboard');
    expect(page.status).toBe(303);
    expect(page.headers.get('Location')).toMatch(/^\/dashboard\/sign-in/);
    expect((await browser.get('/dashboard')).status).toBe(200);
  });

  it('ends the session on sign-out: the same cookie no longer signs anyone in', async () => {
    const browser = new Browser();
    await signUp(browser);
    const token = browser.sessionToken!;
    const out = await browser.post('/dashboard/sign-out');
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie().join()).toMatch(/__Host-recon_session=;.*Max-Age=0/);
    expect(await count('SELECT count(*) AS n FROM sessions WHERE token_hash = ?', await hashSecretToken(token))).toBe(0);
    const replay = new Browser();
    replay.cookies.set('__Host-recon_session', token);
    expect((await replay.get('/dashboard')).status).toBe(303);
  });

  it('refuses an expired session and clears its cookie', async () => {
    const browser = new Browser();
    await signUp(browser);
    const hash = await hashSecretToken(browser.sessionToken!);
    await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE token_hash = ?').bind(new Date(Date.now() - 1000).toISOString(), hash).run();
    const page = await browser.get('/dashboard');
    expect(page.status).toBe(303);
    expect(page.headers.getSetCookie().join()).toMatch(/Max-Age=0/);
  });

  it('expires sessions 7 days after sign-in', async () => {
    const browser = new Browser();
    await signUp(browser);
    const row = await env.DB.prepare('SELECT created_at, expires_at FROM sessions WHERE token_hash = ?').bind(await hashSecretToken(browser.sessionToken!)).first<{ created_at: string; expires_at: string }>();
    expect(Date.parse(row!.expires_at) - Date.parse(row!.created_at)).toBe(7 * 24 * 60 * 60 * 1000);
  });

  it('answers an unknown email and a wrong password alike: same status, same words', async () => {
    const { email } = await signUp(new Browser());
    const wrongPassword = await signIn(new Browser(), email, 'not the password at all');
    const unknownEmail = await signIn(new Browser(), `nobody-${crypto.randomUUID()}@example.com`, 'not the password at all');
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    const message = (html: string) => /<div class="alert alert-error"[^>]*>([^<]*)<\/div>/.exec(html)?.[1];
    const a = message(await wrongPassword.text());
    expect(a).toBe('That email and password do not match an account. Check both and try again.');
    expect(message(await unknownEmail.text())).toBe(a);
  });
});
