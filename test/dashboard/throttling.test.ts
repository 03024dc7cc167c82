import { describe, expect, it } from 'vitest';
import { startEarlyInWindow } from '../helpers/rate-window.ts';
import { Browser, PASSWORD, signUp } from './browser.ts';

/** wrangler.toml: SIGN_IN_RATE_LIMITER allows 10 attempts a minute per address and per account. */
const ALLOWED = 10;

describe('sign-in throttling', () => {
  it('refuses the 11th attempt on one account within a minute, from any address, even with the right password', { timeout: 30_000 }, async () => {
    const { email } = await signUp(new Browser());
    await startEarlyInWindow(10_000);
    for (let i = 0; i < ALLOWED; i++) {
      expect((await new Browser().post('/dashboard/sign-in', { email, password: `wrong password ${i}` })).status).toBe(401);
    }
    const refused = await new Browser().post('/dashboard/sign-in', { email, password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('Too many sign-in attempts from your address or for this account; wait a minute and try again.');
  });

  it('refuses the 11th attempt from one address within a minute, whatever the account', { timeout: 30_000 }, async () => {
    const browser = new Browser();
    await startEarlyInWindow(10_000);
    for (let i = 0; i < ALLOWED; i++) {
      expect((await browser.post('/dashboard/sign-in', { email: `nobody-${i}-${crypto.randomUUID()}@example.com`, password: 'whatever it is' })).status).toBe(401);
    }
    const refused = await browser.post('/dashboard/sign-in', { email: `else-${crypto.randomUUID()}@example.com`, password: 'whatever it is' });
    expect(refused.status).toBe(429);
    // Another address is not affected.
    expect((await new Browser().post('/dashboard/sign-in', { email: `else-${crypto.randomUUID()}@example.com`, password: 'whatever it is' })).status).toBe(401);
  });
});
