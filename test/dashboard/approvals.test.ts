import { describe, expect, it } from 'vitest';
import { requestAction, type ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { json } from '../watches/helpers.ts';
import { dashboardCoreContext, dashboardOrganization, page, type DashboardOrganization } from './pages.ts';

async function request(key: string, body: object): Promise<ApprovalRequestView> {
  return json<ApprovalRequestView>(await call('/api/v1/oms/actions', { key, body }), 202);
}

async function apiRequest(key: string, id: string): Promise<ApprovalRequestView> {
  return json<ApprovalRequestView>(await call(`/api/v1/oms/actions?id=${id}`, { key }), 200);
}

async function companyName(key: string, domain: string): Promise<unknown> {
  const response = await call('/api/v1/oms/objects/get', { key, body: { type: 'company', key: domain } });
  return response.status === 404 ? undefined : (await response.json<{ properties: { name?: string } }>()).properties.name;
}

const RENAME = { action: 'update_properties' as const, params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics Inc' } }, reason: 'The legal name changed.' };

async function marketOrganization(): Promise<DashboardOrganization> {
  const mine = await dashboardOrganization();
  await importMarket(mine.key);
  return mine;
}

describe('the approvals page', () => {
  it('shows each pending request with its change against the current object, who asked and why', async () => {
    const mine = await marketOrganization();
    const rename = await request(mine.key, RENAME);
    const { status, html } = await page(mine.browser, '/dashboard/approvals');
    expect(status).toBe(200);
    expect(html).toContain('<a href="/dashboard/approvals" aria-current="page">Pending</a>');
    expect(html).toContain(`<h2 id="title-${rename.id}"><a href="/dashboard/approvals/${rename.id}">Update properties</a></h2>`);
    expect(html).toContain('Requested by API key &quot;test key&quot; (');
    expect(html).toContain('<blockquote>The legal name changed.</blockquote>');
    expect(html).toContain('Changes <a href="/dashboard/objects/view?type=company&amp;key=acme.com">company <code>acme.com</code></a> (version 1)');
    expect(html).toContain('<tr><th scope="row">name</th><td><del>Acme Analytics</del></td><td><ins>Acme Analytics Inc</ins></td></tr>');
    expect(html).toContain(`aria-label="Approve ${rename.id}"`);
    expect(html).toContain(`aria-label="Reject ${rename.id}"`);
  });

  it('shows what a delete takes with it, a link being added, and a new object', async () => {
    const mine = await marketOrganization();
    const link = { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'globex.com' } };
    const imported = await call('/api/v1/oms/objects/import', { key: mine.key, method: 'POST', rawBody: JSON.stringify(link), headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(await imported.json()).toMatchObject({ failed: 0 });
    await request(mine.key, { action: 'delete_object', params: { type: 'company', key: 'globex.com' } });
    await request(mine.key, { action: 'link', params: { link: 'competitors', from: { type: 'company', key: 'globex.com' }, to: { type: 'company', key: 'acme.com' } } });
    await request(mine.key, { action: 'upsert_object', params: { type: 'company', key: 'initech.example', properties: { name: 'Initech' } } });
    const { html } = await page(mine.browser, '/dashboard/approvals');
    expect(html).toContain('<tr><th scope="row">name</th><td><del>Globex</del></td><td class="muted">(deleted)</td></tr>');
    expect(html).toContain('Deletes <a href="/dashboard/objects/view?type=company&amp;key=globex.com">company <code>globex.com</code></a> (version 1). What goes:');
    expect(html).toContain('<p>Its links go with it:</p><ul><li><del>competitorOf → company acme.com</del></li></ul>');
    expect(html).toContain('<ins>Adds</ins> the link <strong>competitors</strong> from <a href="/dashboard/objects/view?type=company&amp;key=globex.com">company <code>globex.com</code></a> to');
    expect(html).toContain('Creates company <code>initech.example</code>.');
    expect(html).toContain('<tr><th scope="row">name</th><td><span class="muted">(not set)</span></td><td><ins>Initech</ins></td></tr>');
  });

  it('approves: the change is applied at once, decided by the person, and listed under History', async () => {
    const mine = await marketOrganization();
    const rename = await request(mine.key, RENAME);
    const approved = await mine.browser.post(`/dashboard/approvals/${rename.id}/approve`);
    expect(approved.status).toBe(303);
    expect(approved.headers.get('Location')).toBe(`/dashboard/approvals/${rename.id}?done=1`);

    const after = await apiRequest(mine.key, rename.id);
    expect(after).toMatchObject({ status: 'applied', decidedBy: { keyId: mine.userId } });
    expect(await companyName(mine.key, 'acme.com')).toBe('Acme Analytics Inc');

    const detail = await page(mine.browser, `/dashboard/approvals/${rename.id}?done=1`);
    expect(detail.html).toContain('Request approved and applied.');
    expect(detail.html).toContain('<dt>Decided by</dt><dd>you (Ada Lovelace)</dd>');
    const pending = await page(mine.browser, '/dashboard/approvals');
    expect(pending.html).toContain('Nothing waits for a decision.');
    const history = await page(mine.browser, '/dashboard/approvals?tab=history');
    expect(history.html).toContain(`<a href="/dashboard/approvals/${rename.id}">Update properties</a>`);
    expect(history.html).toMatch(/<td>applied<\/td><td>API key &quot;test key&quot; \([^)]*\)<\/td><td>you \(Ada Lovelace\)<\/td>/);
  });

  it('rejects: nothing changes, and deciding again is refused with 409', async () => {
    const mine = await marketOrganization();
    const rename = await request(mine.key, RENAME);
    expect((await mine.browser.post(`/dashboard/approvals/${rename.id}/reject`)).status).toBe(303);
    expect(await apiRequest(mine.key, rename.id)).toMatchObject({ status: 'rejected', decidedBy: { keyId: mine.userId } });
    expect(await companyName(mine.key, 'acme.com')).toBe('Acme Analytics');

    const again = await mine.browser.post(`/dashboard/approvals/${rename.id}/approve`);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(`Approval request ${rename.id} is rejected since`);
    expect(await companyName(mine.key, 'acme.com')).toBe('Acme Analytics');
    const history = await page(mine.browser, '/dashboard/approvals?tab=history&status=rejected');
    expect(history.html).toContain(`/dashboard/approvals/${rename.id}`);
    expect((await page(mine.browser, '/dashboard/approvals?tab=history&status=applied')).html).toContain('No decided requests.');
  });

  it('never lets a person approve a change they requested through the dashboard (403, nothing applied); they may withdraw it', async () => {
    const mine = await marketOrganization();
    const own = await requestAction(dashboardCoreContext(mine), RENAME);
    expect(own.requestedBy.keyId).toBe(mine.userId);
    const { html } = await page(mine.browser, '/dashboard/approvals');
    expect(html).toContain('You requested this change, so someone else must approve it');
    expect(html).not.toContain(`aria-label="Approve ${own.id}"`);

    const refused = await mine.browser.post(`/dashboard/approvals/${own.id}/approve`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('You requested this change, so you cannot approve it');
    expect((await apiRequest(mine.key, own.id)).status).toBe('pending');
    expect(await companyName(mine.key, 'acme.com')).toBe('Acme Analytics');

    // Another key of the organization may approve it.
    const approved = await call(`/api/v1/oms/actions/${own.id}/approve`, { key: mine.key, method: 'POST' });
    expect((await approved.json<ApprovalRequestView>()).status).toBe('applied');
  });

  it("answers 404 for another organization's request, and deciding it changes nothing", async () => {
    const mine = await dashboardOrganization();
    const other = await createOrganization();
    await importMarket(other.key);
    const theirs = await request(other.key, RENAME);
    const { status, html } = await page(mine.browser, `/dashboard/approvals/${theirs.id}`);
    expect(status).toBe(404);
    expect(html).toContain('<h1>Not found</h1>');
    expect((await page(mine.browser, '/dashboard/approvals')).html).not.toContain(theirs.id);
    for (const decision of ['approve', 'reject']) expect((await mine.browser.post(`/dashboard/approvals/${theirs.id}/${decision}`)).status).toBe(404);
    expect((await apiRequest(other.key, theirs.id)).status).toBe('pending');
    expect(await companyName(other.key, 'acme.com')).toBe('Acme Analytics');
  });

  it('refuses a decision posted from another site', async () => {
    const mine = await marketOrganization();
    const rename = await request(mine.key, RENAME);
    const forged = await mine.browser.post(`/dashboard/approvals/${rename.id}/approve`, {}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect((await apiRequest(mine.key, rename.id)).status).toBe('pending');
  });
});
