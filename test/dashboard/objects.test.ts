import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { createAndSettle, json } from '../watches/helpers.ts';
import { dashboardOrganization, expectOnlyDashboardScript, page } from './pages.ts';

async function importLines(key: string, lines: object[]): Promise<void> {
  const response = await call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'Content-Type': 'application/x-ndjson' } });
  expect(await response.json()).toMatchObject({ failed: 0 });
}

describe('the objects page', () => {
  it("searches the organization's objects by type and words, and never another organization's", async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const other = await createOrganization();
    await importLines(other.key, [{ type: 'company', key: 'acme-rival.example', properties: { name: 'Acme Rival' } }]);

    const { status, html } = await page(mine.browser, '/dashboard/objects?type=company&q=acme');
    expect(status).toBe(200);
    expect(html).toContain('<option value="company" selected="">company</option>');
    expect(html).toContain('value="acme"');
    expect(html).toContain('<a href="/dashboard/objects/view?type=company&amp;key=acme.com">Acme Analytics</a>');
    expect(html).not.toContain('globex.com');
    expect(html).not.toContain('acme-rival.example');

    const sources = await page(mine.browser, '/dashboard/objects?type=source&q=pricing');
    expect(sources.html).toContain('<a href="/dashboard/objects/view?type=source&amp;key=https%3A%2F%2Facme.com%2Fpricing">Acme Analytics pricing</a>');
    const all = await page(mine.browser, '/dashboard/objects?type=company');
    expect(all.html).toContain('acme.com');
    expect(all.html).toContain('globex.com');
  });

  it('shows a refused search beside its field (400), and an unknown type as a choice to make', async () => {
    const mine = await dashboardOrganization();
    const refused = await page(mine.browser, '/dashboard/objects?type=source&q=%21%21%21');
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('<p class="error" id="field-q-error">query has no letters or digits to search for</p>');
    expect(refused.html).toContain('aria-invalid="true"');
    const unknown = await page(mine.browser, '/dashboard/objects?type=planet');
    expect(unknown.status).toBe(400);
    expect(unknown.html).toContain('Choose a type: company, person, source, brief.');
  });

  it('opens an object with each property, its provenance (kind, id, url, when) and its history', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const rename = await json<ApprovalRequestView>(
      await call('/api/v1/oms/actions', { key: mine.key, body: { action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Inc' } } } }),
      202,
    );
    expect((await mine.browser.post(`/dashboard/approvals/${rename.id}/approve`)).status).toBe(303);

    const { status, html } = await page(mine.browser, '/dashboard/objects/view?type=company&key=acme.com');
    expect(status).toBe(200);
    expect(html).toContain('<h1>company Acme Inc</h1>');
    expect(html).toContain('<dt>Version</dt><dd>2</dd>');
    expect(html).toMatch(
      new RegExp(`<tr><th scope="row">name</th><td><span class="value">Acme Inc</span></td><td>action <a href="/dashboard/approvals/${rename.id}"><code>${rename.id}</code></a></td><td>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC</td></tr>`),
    );
    expect(html).toMatch(/<td>name<\/td><td><span class="muted">\(not set\)<\/span><\/td><td><span class="value">Acme Analytics<\/span><\/td><td>import <code>imp_[0-9a-f]+<\/code><\/td>/);
    expect(html).toMatch(
      new RegExp(`<td>name</td><td><span class="value">Acme Analytics</span></td><td><span class="value">Acme Inc</span></td><td>action <a href="/dashboard/approvals/${rename.id}">`),
    );

    const source = await page(mine.browser, '/dashboard/objects/view?type=source&key=https%3A%2F%2Facme.com%2Fpricing');
    expect(source.status).toBe(200);
    expect(source.html).toContain('<tr><th scope="row">title</th><td><span class="value">Acme Analytics pricing</span></td>');
  });

  it('links a provenance url only when it is http(s), and shows hostile property values as text', async () => {
    const mine = await dashboardOrganization();
    await importLines(mine.key, [
      { type: 'company', key: 'evil.example', properties: { name: 'Evil <script>globalThis.pwned = 1</script>', description: `<img src=x onerror=alert(1)> ${'x'.repeat(400)}` } },
    ]);
    const { html } = await page(mine.browser, '/dashboard/objects/view?type=company&key=evil.example');
    expectOnlyDashboardScript(html);
    expect(html).toContain('Evil &lt;script&gt;globalThis.pwned = 1&lt;/script&gt;');
    expect(html).not.toMatch(/<img\b/);
    // A long value is folded behind its start.
    expect(html).toMatch(/<details><summary>&lt;img src=x onerror=alert\(1\)&gt; x+… \(4\d\d characters\)<\/summary>/);
  });

  it("answers 404 for another organization's object, and 400 for a malformed key", async () => {
    const mine = await dashboardOrganization();
    const other = await createOrganization();
    await importLines(other.key, [{ type: 'company', key: 'secret.example', properties: { name: 'Secret' } }]);
    const theirs = await page(mine.browser, '/dashboard/objects/view?type=company&key=secret.example');
    expect(theirs.status).toBe(404);
    expect(theirs.html).toContain('<h1>Not found</h1>');
    expect(theirs.html).not.toContain('Secret<');
    expect((await page(mine.browser, '/dashboard/objects/view?type=company&key=not%20a%20domain')).status).toBe(400);
  });

  it("renders a watch's brief from its markdown, and links the watch that wrote it", async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const watch = await createAndSettle(mine.key);
    const { html: watchPage } = await page(mine.browser, `/dashboard/watches/${watch.id}`);
    const briefPath = /href="(\/dashboard\/objects\/view\?type=brief&amp;key=[^"]+)"/.exec(watchPage)![1]!.replace(/&amp;/g, '&');
    const { status, html } = await page(mine.browser, briefPath);
    expect(status).toBe(200);
    expect(html).toContain('<h2 id="brief-title">Brief</h2><article class="markdown"><h2>');
    expect(html).toContain(`watch <a href="/dashboard/watches/${watch.id}">`);

    // The watched company: the property the watch wrote, with its source's url.
    const company = await page(mine.browser, '/dashboard/objects/view?type=company&key=globex.com');
    expect(company.html).toContain(
      `<tr><th scope="row">pricing</th><td><span class="value">Globex Insights pricing starts at $99 per seat per month.</span></td><td>watch <a href="/dashboard/watches/${watch.id}"><code>${watch.id}</code></a> (<a href="https://globex.com/blog/launch" rel="noopener noreferrer nofollow">https://globex.com/blog/launch</a>)</td>`,
    );
    expect(company.html).toMatch(/<td>briefs<\/td><td><a href="\/dashboard\/objects\/view\?type=brief&amp;key=wex_[0-9a-f]+">/);
  });
});
