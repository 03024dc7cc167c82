import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { writeObjects } from '../../src/oms/store.ts';
import { research } from '../../src/operations/commands/research.ts';
import { SCOPES } from '../../src/ground/api-key.ts';
import type { CoreContext } from '../../src/ground/context.ts';
import { call, createOrganization, FINISHED_PROFILE, type TestOrganization } from '../helpers/fixtures.ts';
import { fixturePage } from '../helpers/fixture-pages.ts';
import { requestDbOver } from '../helpers/request-db.ts';

// Source URLs that came from outside lose their credentials (src/ground/url-credentials.ts) before
// they are stored, and a brief never shows the ones a source stored earlier kept.

const CONTENT = 'The Acme Analytics Team plan costs $49 per seat per month for every team.';
const SECRETS = /s3cret|analyst@|abc123|tok_live|X-Amz-Signature|sig=|token=/i;

async function importLines(key: string, lines: readonly unknown[]) {
  const response = await call('/api/v1/oms/objects/import', {
    key,
    method: 'POST',
    rawBody: lines.map((line) => JSON.stringify(line)).join('\n'),
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  return response.json<{ imported: number; updated: number; unchanged: number; failed: number; errors: unknown[] }>();
}

async function storedSources(organizationId: string) {
  const rows = await env.DB.prepare("SELECT key, properties FROM objects WHERE organization_id = ? AND type = 'source' ORDER BY key")
    .bind(organizationId)
    .all<{ key: string; properties: string }>();
  return rows.results.map((row) => ({ key: row.key, url: JSON.parse(row.properties).url as string }));
}

async function provenanceUrls(key: string, sourceKey: string): Promise<(string | undefined)[]> {
  const response = await call('/api/v1/oms/objects/provenance', { key, body: { type: 'source', key: sourceKey } });
  const { properties } = await response.json<{ properties: { source: { url?: string } }[] }>();
  return properties.map((p) => p.source.url);
}

function contextOf(org: TestOrganization): CoreContext {
  return { env, db: requestDbOver(), principal: { organization: { id: org.id, slug: org.slug, name: 'Acme' }, keyId: org.keyId, scopes: SCOPES }, requestId: 'req_test' };
}

describe('an import of sources whose URLs carry credentials', () => {
  it('stores and answers the key and url without user:pw@ and without ?token=', async () => {
    const org = await createOrganization();
    const line = {
      type: 'source',
      key: 'https://analyst:s3cret@acme.com/pricing?plan=team&token=abc123',
      properties: { title: 'Acme pricing', url: 'https://acme.com/pricing?plan=team&token=abc123', content: CONTENT },
    };
    expect(await importLines(org.key, [line])).toMatchObject({ imported: 1, failed: 0 });
    expect(await storedSources(org.id)).toEqual([{ key: 'https://acme.com/pricing?plan=team', url: 'https://acme.com/pricing?plan=team' }]);

    const got = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'source', key: 'https://acme.com/pricing?plan=team' } });
    const body = await got.json<{ key: string; properties: { url: string } }>();
    expect(body).toMatchObject({ key: 'https://acme.com/pricing?plan=team', properties: { url: 'https://acme.com/pricing?plan=team' } });
    expect(JSON.stringify(body)).not.toMatch(SECRETS);
  });

  it('makes two imports that differ only by a token one source', async () => {
    const org = await createOrganization();
    const first = { type: 'source', key: 'https://acme.com/pricing?access_token=tok_live_1', properties: { title: 'Acme pricing', content: CONTENT } };
    const second = { ...first, key: 'https://acme.com/pricing?access_token=tok_live_2' };
    expect(await importLines(org.key, [first])).toMatchObject({ imported: 1 });
    expect(await importLines(org.key, [second])).toMatchObject({ imported: 0, unchanged: 1 });
    expect(await storedSources(org.id)).toEqual([{ key: 'https://acme.com/pricing', url: 'https://acme.com/pricing' }]);
  });

  it('accepts a url property whose token differs from the key\'s, as the same URL', async () => {
    const org = await createOrganization();
    const line = {
      type: 'source',
      key: 'https://acme.com/pricing?sig=aaa',
      properties: { title: 'Acme pricing', url: 'https://acme.com/pricing?sig=bbb', content: CONTENT },
    };
    expect(await importLines(org.key, [line])).toMatchObject({ imported: 1, failed: 0 });
    expect(await storedSources(org.id)).toEqual([{ key: 'https://acme.com/pricing', url: 'https://acme.com/pricing' }]);
  });

  it('still refuses a url property that is another page once both are cleaned', async () => {
    const org = await createOrganization();
    const line = { type: 'source', key: 'https://acme.com/pricing?token=a', properties: { title: 'Acme', url: 'https://acme.com/other?token=a', content: CONTENT } };
    expect(await importLines(org.key, [line])).toMatchObject({ imported: 0, failed: 1 });
  });
});

describe('a source added by URL', () => {
  it('is stored under its URL without the token it was fetched with, in its key, url and provenance', async () => {
    const org = await createOrganization();
    const sent = fixturePage('/zephyr-pricing?ref=nav&api_key=abc123');
    const response = await call('/api/v1/oms/sources', { key: org.key, body: { urls: [sent] } });
    const { results } = await response.json<{ results: { status: string; key: string }[] }>();
    const clean = fixturePage('/zephyr-pricing?ref=nav');
    expect(results[0]).toMatchObject({ status: 'imported', key: clean });
    expect(await storedSources(org.id)).toEqual([{ key: clean, url: clean }]);
    const urls = await provenanceUrls(org.key, clean);
    expect(urls.length).toBeGreaterThan(0);
    expect(new Set(urls)).toEqual(new Set([clean]));
  });

  it('is stored without the signature of a presigned URL a redirect led to', async () => {
    const org = await createOrganization();
    const target = '/zephyr-pricing?X-Amz-Credential=AKIA&X-Amz-Signature=abc123&X-Amz-Expires=60';
    const sent = fixturePage(`/to?location=${encodeURIComponent(target)}`);
    const response = await call('/api/v1/oms/sources', { key: org.key, body: { urls: [sent] } });
    const { results } = await response.json<{ results: { status: string; key: string }[] }>();
    const clean = fixturePage('/zephyr-pricing?X-Amz-Expires=60');
    expect(results[0]).toMatchObject({ status: 'imported', key: clean });
    const urls = await provenanceUrls(org.key, clean);
    expect(urls.every((url) => url === clean)).toBe(true);
    expect(JSON.stringify(await storedSources(org.id))).not.toMatch(SECRETS);
  });
});

describe('a brief over a source stored with a token in its key (before keys were cleaned)', () => {
  async function organizationWithLegacySource(): Promise<TestOrganization> {
    const org = await createOrganization();
    // Written past the import's key schema, as a source stored before this change was.
    await writeObjects(
      env.DB,
      org.id,
      [{ type: 'source', key: 'https://acme.com/pricing?plan=team&token=abc123', properties: { title: 'Acme pricing', publishedAt: '2026-05-01', content: CONTENT } }],
      [],
      { kind: 'import', id: 'imp_legacy' },
    );
    return org;
  }

  it('cites it in its markdown without the token', async () => {
    const org = await organizationWithLegacySource();
    const markdown = await (await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics Team plan' } })).text();
    expect(markdown).toContain('https://acme.com/pricing?plan=team');
    expect(markdown).not.toMatch(SECRETS);
  });

  it('names it in its claims without the token', async () => {
    const org = await organizationWithLegacySource();
    const answer = await research(contextOf(org), { topic: 'Acme Analytics Team plan', tier: 'lite' }, FINISHED_PROFILE);
    const urls = answer.data.claims.flatMap((claim) => claim.sources.map((source) => source.url));
    expect(urls).toContain('https://acme.com/pricing?plan=team');
    expect(JSON.stringify(answer.data)).not.toMatch(SECRETS);
    expect(answer.markdown).not.toMatch(SECRETS);
  });
});
