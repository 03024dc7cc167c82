import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { hashSecretToken } from '../../src/auth/secret-token.ts';
import { Browser, count, organizationOf, PASSWORD, signUp, uniqueEmail } from './browser.ts';

async function invite(browser: Browser): Promise<{ url: string; token: string }> {
  const response = await browser.post('/dashboard/team/invites');
  expect(response.status).toBe(201);
  const html = await response.text();
  expect(html).toContain('it will not be shown again');
  const url = /<code id="invite-link">(https:\/\/recon\.test\/dashboard\/invite\?token=([A-Za-z0-9_-]{43}))<\/code>/.exec(html);
  expect(url).not.toBeNull();
  return { url: url![1]!.replace('https://recon.test', ''), token: url![2]! };
}

function join(browser: Browser, token: string, email = uniqueEmail()) {
  return browser.post('/dashboard/invite', { token, name: 'Grace Hopper', email, password: PASSWORD });
}

describe('invitations', () => {
  it('a one-time link lets a teammate set a name and password and join the organization', async () => {
    const owner = new Browser();
    await signUp(owner, { organizationName: 'Invite Co' });
    const org = await organizationOf(owner);
    const { url, token } = await invite(owner);
    expect(await count('SELECT count(*) AS n FROM invites WHERE token_hash = ?', token)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM invites WHERE token_hash = ?', await hashSecretToken(token))).toBe(1);

    const teammate = new Browser();
    const page = await teammate.get(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You were invited to join Invite Co on Recon.');
    const email = uniqueEmail();
    const joined = await join(teammate, token, email);
    expect(joined.status).toBe(303);
    expect((await organizationOf(teammate)).id).toBe(org.id);
    const team = await (await owner.get('/dashboard/team')).text();
    expect(team).toContain(email);
    expect(team).toContain('used by Grace Hopper');
  });

  it('works once: a second use is refused and adds nobody', async () => {
    const owner = new Browser();
    await signUp(owner);
    const org = await organizationOf(owner);
    const { url, token } = await invite(owner);
    expect((await join(new Browser(), token)).status).toBe(303);
    const second = new Browser();
    const email = uniqueEmail();
    const refused = await join(second, token, email);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('This invitation link cannot be used');
    expect(second.sessionToken).toBeUndefined();
    expect(await count('SELECT count(*) AS n FROM users WHERE email = ?', email)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM memberships WHERE organization_id = ?', org.id)).toBe(2);
    expect((await new Browser().get(url)).status).toBe(404);
  });

  it('two simultaneous acceptances of one link: exactly one joins', async () => {
    const owner = new Browser();
    await signUp(owner);
    const org = await organizationOf(owner);
    const { token } = await invite(owner);
    const results = await Promise.all([join(new Browser(), token), join(new Browser(), token), join(new Browser(), token)]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 404, 404]);
    expect(await count('SELECT count(*) AS n FROM memberships WHERE organization_id = ?', org.id)).toBe(2);
  });

  it('expires: an expired link is refused and adds nobody', async () => {
    const owner = new Browser();
    await signUp(owner);
    const org = await organizationOf(owner);
    const { token } = await invite(owner);
    await env.DB.prepare('UPDATE invites SET expires_at = ? WHERE token_hash = ?').bind(new Date(Date.now() - 1000).toISOString(), await hashSecretToken(token)).run();
    expect((await join(new Browser(), token)).status).toBe(404);
    expect(await count('SELECT count(*) AS n FROM memberships WHERE organization_id = ?', org.id)).toBe(1);
  });

  it('someone already signed in joins with their own account', async () => {
    const owner = new Browser();
    await signUp(owner, { organizationName: 'Host Org' });
    const host = await organizationOf(owner);
    const { url, token } = await invite(owner);
    const guest = new Browser();
    await signUp(guest, { organizationName: 'Guest Org' });
    expect(await (await guest.get(url)).text()).toContain('Join Host Org with this account?');
    const before = guest.sessionToken;
    expect((await guest.post('/dashboard/invite', { token })).status).toBe(303);
    expect(guest.sessionToken).not.toBe(before);
    expect((await organizationOf(guest)).id).toBe(host.id);
  });

  it('refuses a bad form with messages beside the fields and keeps the link usable', async () => {
    const owner = new Browser();
    await signUp(owner);
    const { token } = await invite(owner);
    const response = await new Browser().post('/dashboard/invite', { token, name: '', email: 'nope', password: 'short' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('id="field-email-error"');
    expect((await join(new Browser(), token)).status).toBe(303);
  });
});
