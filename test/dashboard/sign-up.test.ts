import { describe, expect, it } from 'vitest';
import { Browser, count, PASSWORD, signUp, uniqueEmail } from './browser.ts';

describe('dashboard sign-up', () => {
  it('creates the organization, its first user and a session behind a __Host- cookie (HttpOnly, Secure, SameSite=Lax)', async () => {
    const browser = new Browser();
    const { email, response } = await signUp(browser, { organizationName: 'Umbrella Research' });
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/dashboard/onboarding');
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('__Host-recon_session='))!;
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/Domain=/i);

    const user = await count('SELECT count(*) AS n FROM users u JOIN memberships m ON m.user_id = u.id JOIN organizations o ON o.id = m.organization_id WHERE u.email = ? AND o.name = ?', email, 'Umbrella Research');
    expect(user).toBe(1);
    const page = await browser.get('/dashboard');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Umbrella Research');
  });

  it('stores only the SHA-256 of the session token and a salted PBKDF2 hash of the password', async () => {
    const browser = new Browser();
    const { email } = await signUp(browser);
    const token = browser.sessionToken!;
    expect(await count('SELECT count(*) AS n FROM sessions WHERE token_hash = ?', token)).toBe(0);
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)))].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(await count('SELECT count(*) AS n FROM sessions WHERE token_hash = ?', digest)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM users WHERE email = ? AND password_hash LIKE 'pbkdf2-sha256$100000$%' AND instr(password_hash, ?) = 0", email, PASSWORD)).toBe(1);
  });

  it('gives two organizations with the same name different slugs', async () => {
    const name = `Same Name ${crypto.randomUUID().slice(0, 8)}`;
    await signUp(new Browser(), { organizationName: name });
    await signUp(new Browser(), { organizationName: name });
    const { results } = await (await import('cloudflare:workers')).env.DB.prepare('SELECT slug FROM organizations WHERE name = ? ORDER BY created_at').bind(name).all<{ slug: string }>();
    expect(results).toHaveLength(2);
    expect(results[0]!.slug).toMatch(/^same-name-[0-9a-f]{8}$/);
    expect(results[1]!.slug).toMatch(new RegExp(`^${results[0]!.slug}-[0-9a-f]{6}$`));
  });

  it('refuses bad input with messages beside the fields (aria-describedby) and writes nothing', async () => {
    const browser = new Browser();
    const email = uniqueEmail();
    const response = await browser.post('/dashboard/sign-up', { organizationName: '', name: 'Ada', email: 'not-an-email', password: 'short' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(/<input id="field-email" name="email" required="" aria-invalid="true" aria-describedby="field-email-error"/);
    expect(html).toMatch(/<p class="error" id="field-email-error">email must be an email address<\/p>/);
    expect(html).toMatch(/id="field-password-error">password must be a string of 12 to 256 characters/);
    expect(html).toMatch(/id="field-organizationName-error">organizationName/);
    expect(browser.sessionToken).toBeUndefined();
    expect(await count('SELECT count(*) AS n FROM users WHERE email = ?', email)).toBe(0);
  });

  it('refuses an email that already has an account, creating no second organization', async () => {
    const { email } = await signUp(new Browser());
    const name = `Second ${crypto.randomUUID()}`;
    const second = new Browser();
    const { response } = await signUp(second, { email, organizationName: name });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain('This email cannot be used for a new account. If it is yours, sign in instead.');
    expect(second.sessionToken).toBeUndefined();
    expect(await count('SELECT count(*) AS n FROM organizations WHERE name = ?', name)).toBe(0);
  });
});
