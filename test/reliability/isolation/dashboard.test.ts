import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/fixtures.ts';
import { dashboardOrganization, type DashboardOrganization } from '../../dashboard/pages.ts';
import { seen } from '../support/compare.ts';
import { buildWorld, type World } from '../support/world.ts';

/**
 * Suite 2, the dashboard: a person signed in to one organization reaches nothing of another. Each
 * page or form that names a run, watch, approval request, object or key answers the other
 * organization's id exactly as a made-up one, and changes nothing of theirs.
 */
let person: DashboardOrganization;
let theirs: World;

const madeUpLike = (value: string) => value.replace(/[0-9a-f](?=[0-9a-f]*$)/g, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]!);

beforeAll(async () => {
  person = await dashboardOrganization();
  theirs = await buildWorld();
});

async function dashboard(path: string, method: 'GET' | 'POST', value: string) {
  const response = method === 'GET' ? await person.browser.get(path) : await person.browser.post(path, {});
  return seen(response, value);
}

describe("a dashboard session reaches nothing of another organization", () => {
  const PAGES: [string, 'GET' | 'POST', () => [string, string], (v: string) => string][] = [
    ['run page', 'GET', () => [theirs.run.id, madeUpLike(theirs.run.id)], (v) => `/dashboard/runs/${v}`],
    ['watch page', 'GET', () => [theirs.watchId, madeUpLike(theirs.watchId)], (v) => `/dashboard/watches/${v}`],
    ['watch cancel page', 'GET', () => [theirs.watchId, madeUpLike(theirs.watchId)], (v) => `/dashboard/watches/${v}/cancel`],
    ['watch cancel form', 'POST', () => [theirs.watchId, madeUpLike(theirs.watchId)], (v) => `/dashboard/watches/${v}/cancel`],
    ['approval page', 'GET', () => [theirs.actions.pending, madeUpLike(theirs.actions.pending)], (v) => `/dashboard/approvals/${v}`],
    ['approve form', 'POST', () => [theirs.actions.pending, madeUpLike(theirs.actions.pending)], (v) => `/dashboard/approvals/${v}/approve`],
    ['reject form', 'POST', () => [theirs.actions.pending, madeUpLike(theirs.actions.pending)], (v) => `/dashboard/approvals/${v}/reject`],
    ['object page', 'GET', () => [theirs.objects.brief!, madeUpLike(theirs.objects.brief!)], (v) => `/dashboard/objects/view?type=brief&key=${encodeURIComponent(v)}`],
    ['key revoke page', 'GET', () => [theirs.org.keyId, madeUpLike(theirs.org.keyId)], (v) => `/dashboard/settings/keys/${v}/revoke`],
    ['key revoke form', 'POST', () => [theirs.org.keyId, madeUpLike(theirs.org.keyId)], (v) => `/dashboard/settings/keys/${v}/revoke`],
    ['key replace form', 'POST', () => [theirs.org.keyId, madeUpLike(theirs.org.keyId)], (v) => `/dashboard/settings/keys/${v}/replace`],
  ];

  it.each(PAGES)('%s: their id answers as a made-up one', async (_name, method, values, path) => {
    const [theirValue, madeUp] = values();
    const a = await dashboard(path(theirValue), method, theirValue);
    const b = await dashboard(path(madeUp), method, madeUp);
    // CSRF tokens and nonces differ per page: compare status and type, and look for their name.
    expect({ status: a.status, contentType: a.contentType }).toEqual({ status: b.status, contentType: b.contentType });
    expect(a.text.includes(theirs.org.slug)).toBe(false);
  });

  it("changed nothing of theirs: key, watch and request as they were", async () => {
    expect((await call('/api/v1/commands', { key: theirs.org.key })).status).toBe(200);
    const row = await env.DB.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').bind(theirs.org.keyId).first<{ revoked_at: string | null }>();
    expect(row?.revoked_at).toBeNull();
    const request = await (await call(`/api/v1/oms/actions?id=${theirs.actions.pending}`, { key: theirs.org.key })).json<{ status: string }>();
    expect(request.status).toBe('pending');
  });
});
