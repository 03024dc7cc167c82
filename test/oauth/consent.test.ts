import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { randomId } from '../../src/ground/api-key.ts';
import { insertOrganizationStatement } from '../../src/db/organizations.ts';
import { insertMembershipStatement } from '../../src/db/users.ts';
import { Browser, PASSWORD } from '../dashboard/browser.ts';
import { authorizationRequest, consent, grantsOf, onboardedPerson, REDIRECT_URI, registerClient, userOf } from './helpers.ts';

/** Another organization, with the person as a member when `member` (as an accepted invitation makes them). */
async function otherOrganization(userId: string, member: boolean): Promise<string> {
  const id = randomId('org');
  const now = new Date().toISOString();
  await insertOrganizationStatement(env.DB, { id, slug: `other-${id.slice(-8)}`, name: 'Globex Research', createdAt: now }).run();
  if (member) await insertMembershipStatement(env.DB, id, userId, now).run();
  return id;
}

function checked(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`<input type="(?:checkbox|radio)" name="${name}" value="([^"]+)"[^>]*checked`, 'g'))].map((match) => match[1]!);
}

describe('the OAuth consent page', () => {
  it('sends a person without a session to sign in, and back to the same request after it', async () => {
    const person = await onboardedPerson();
    const request = await authorizationRequest(await registerClient());
    const stranger = new Browser();
    const response = await stranger.get(request.path);
    expect(response.status).toBe(303);
    const signIn = new URL(response.headers.get('Location')!, 'https://recon.test');
    expect(signIn.pathname).toBe('/dashboard/sign-in');
    expect(signIn.searchParams.get('next')).toBe(request.path);

    // The person signs in on that page; the hidden `next` brings them back to the consent page.
    const email = (await env.DB.prepare('SELECT email FROM users WHERE id = ?').bind((await userOf(person)).userId).first<{ email: string }>())!.email;
    const signedIn = await stranger.post('/dashboard/sign-in', { email, password: PASSWORD, next: signIn.searchParams.get('next')! });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('Location')).toBe(request.path);
    const page = await stranger.get(request.path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Test MCP client');
  });

  it('shows the client, where it redirects, the organizations and the default scopes; never offers oms:approve', async () => {
    const person = await onboardedPerson('Initech Labs');
    const { userId, organizationId } = await userOf(person);
    const second = await otherOrganization(userId, true);
    const request = await authorizationRequest(await registerClient(), { scope: 'commands oms:read oms:approve' });
    const response = await person.get(request.path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<strong>Test MCP client</strong>');
    expect(html).toContain('<strong>127.0.0.1</strong>');
    expect(html).toContain('any program running there could receive the access');
    expect(html).toContain('Initech Labs');
    expect(html).toContain('Globex Research');
    expect(checked(html, 'organization')).toEqual([organizationId]);
    expect(html).toContain(`value="${second}"`);
    expect(checked(html, 'scopes')).toEqual(['commands', 'oms:read']);
    expect(html).toContain('value="oms:write"');
    expect(html).not.toContain('value="oms:approve"');
    expect(html).toContain('The client also asked for oms:approve, which it cannot have.');
    // The form posts back to the same request; its policy lets the redirect go to the client only.
    expect(html).toContain(`action="${request.path.replace(/&/g, '&amp;')}"`);
    expect(response.headers.get('Content-Security-Policy')).toContain("form-action 'self' http://127.0.0.1:33418;");
    expect(response.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('X-Frame-Options')).toBe('DENY');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
  });

  it('proposes commands and oms:read when the client asks for nothing it can have', async () => {
    const person = await onboardedPerson();
    const request = await authorizationRequest(await registerClient());
    expect(checked(await (await person.get(request.path)).text(), 'scopes')).toEqual(['commands', 'oms:read']);
  });

  it('allows: redirects to the client with code, state and iss, and stores one grant with the chosen organization and scopes', async () => {
    const person = await onboardedPerson();
    const { userId } = await userOf(person);
    const second = await otherOrganization(userId, true);
    const request = await authorizationRequest(await registerClient());
    const response = await consent(person, request, { organization: second, scopes: ['commands', 'oms:write'] });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('Location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe(request.state);
    expect(location.searchParams.get('iss')).toBe('https://recon.test');
    expect(location.searchParams.get('code')).toMatch(new RegExp(`^${userId}:`));
    const grants = await grantsOf(userId);
    expect(grants).toHaveLength(1);
    const grant = await env.OAUTH_KV.get<{ scope: string[]; metadata: { organizationId: string }; clientId: string }>(`grant:${userId}:${grants[0]}`, 'json');
    expect(grant).toMatchObject({ scope: ['commands', 'oms:write'], metadata: { organizationId: second }, clientId: request.client.client_id });
  });

  it('denies: redirects to the client with access_denied and its state, and stores nothing', async () => {
    const person = await onboardedPerson();
    const { userId } = await userOf(person);
    const request = await authorizationRequest(await registerClient());
    const response = await person.post(request.path, { decision: 'deny', organization: (await userOf(person)).organizationId, scopes: ['commands'] });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('Location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe(request.state);
    expect(location.searchParams.get('code')).toBeNull();
    expect(await grantsOf(userId)).toEqual([]);
  });

  it('refuses an organization the person does not belong to with 403 beside the field, and stores nothing', async () => {
    const person = await onboardedPerson();
    const { userId } = await userOf(person);
    const foreign = await otherOrganization(userId, false);
    const request = await authorizationRequest(await registerClient());
    const response = await consent(person, request, { organization: foreign, scopes: ['commands'] });
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).toContain('You are not a member of that organization; pick one of yours.');
    expect(html).toContain('id="organization-error"');
    expect(await grantsOf(userId)).toEqual([]);
  });

  it('refuses oms:approve, an unknown scope or none at all with 400, and stores nothing', async () => {
    const person = await onboardedPerson();
    const { userId, organizationId } = await userOf(person);
    const request = await authorizationRequest(await registerClient());
    for (const scopes of [['commands', 'oms:approve'], ['admin'], []]) {
      const response = await consent(person, request, { organization: organizationId, scopes });
      expect(response.status, scopes.join()).toBe(400);
      expect(await response.text()).toContain('id="scopes-error"');
    }
    expect(await grantsOf(userId)).toEqual([]);
  });

  it('refuses a post from another site (CSRF) with 403 before anything happens', async () => {
    const person = await onboardedPerson();
    const { userId, organizationId } = await userOf(person);
    const request = await authorizationRequest(await registerClient());
    const form = { decision: 'allow', organization: organizationId, scopes: ['commands'] };
    const crossSite = await person.post(request.path, form, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('Location')).toBeNull();
    const noSession = await new Browser().post(request.path, form);
    expect(noSession.status).toBe(303);
    expect(noSession.headers.get('Location')).toBe('/dashboard/sign-in');
    expect(await grantsOf(userId)).toEqual([]);
  });

  it('never redirects to an unregistered redirect URI or for an unknown client: it says so on the page', async () => {
    const person = await onboardedPerson();
    const client = await registerClient();
    const elsewhere = await authorizationRequest(client, { redirectUri: 'https://evil.example/callback' });
    const unknown = await authorizationRequest({ client_id: 'no-such-client', redirect_uris: [REDIRECT_URI] });
    for (const request of [elsewhere, unknown]) {
      const response = await person.get(request.path);
      expect(response.status).toBe(400);
      expect(response.headers.get('Location')).toBeNull();
      expect(await response.text()).toContain('This connection request cannot be completed');
    }
  });

  it('sends a request without PKCE back to the client with invalid_request', async () => {
    const person = await onboardedPerson();
    const request = await authorizationRequest(await registerClient(), { withoutPkce: true });
    const response = await person.get(request.path);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('Location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe(request.state);
  });
});
