import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { fixturePage } from '../helpers/fixture-pages.ts';

// The "done when": research after adding a fixture page by URL cites it. A new
// organization has no sources at all, so whatever the brief cites came from that page.
describe('research over a page added by URL', () => {
  it('cites the page: its sentence quoted, its URL among the sources, its marker in the findings', async () => {
    const org = await createOrganization();
    const url = fixturePage('/zephyr-pricing');
    const before = await (await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Zephyr Robotics Fleet plan price' } })).text();
    expect(before).not.toContain(url);

    const added = await call('/api/v1/oms/sources', { key: org.key, body: { urls: [url] } });
    expect(await added.json()).toMatchObject({ results: [{ url, status: 'imported', key: url }] });

    const response = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Zephyr Robotics Fleet plan price' } });
    expect(response.status).toBe(200);
    const markdown = await response.text();
    expect(markdown).toContain('Zephyr Robotics charges $4,200 per robot per month for its Fleet plan, billed annually.');
    const source = new RegExp(`^\\[(\\d+)\\] Zephyr Robotics pricing & plans, .*${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').exec(markdown);
    expect(source, markdown).not.toBeNull();
    const sections = markdown.split(/^## Sources$/m);
    expect(sections, markdown).toHaveLength(2);
    const sourcesSection = sections[0]!;
    expect(sourcesSection).toContain(`[${source![1]}]`);
    // Headings are lines of their own: a quote never runs a heading into the sentence after it.
    expect(markdown).not.toContain('Fleet plan Zephyr Robotics charges');
    // Nothing of the page's navigation, scripts or styles reaches the brief.
    expect(markdown).not.toContain('must not be imported');
  });
});
