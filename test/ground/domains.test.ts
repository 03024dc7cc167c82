import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { normalizeDomain, normalizeHost } from '../../src/ground/schemas/common.ts';
import { domainOf } from '../../src/oms/object-types.ts';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

/** The same company written the ways people write it. */
const FORMS = ['acme.com', 'www.acme.com', 'https://acme.com/', 'ACME.com.', 'https://WWW.Acme.com/pricing?x=1', 'http://acme.com:8080'];

describe('one normalization of domains', () => {
  it('reads a bare domain, a URL, upper case, a trailing dot and a leading www. as the same domain', () => {
    for (const form of FORMS) expect(normalizeDomain(form), form).toBe('acme.com');
    expect(normalizeDomain('www.com')).toBe('www.com');
    expect(normalizeDomain('shop.acme.com')).toBe('shop.acme.com');
    expect(domainOf('https://WWW.Acme.com./pricing')).toBe('acme.com');
    for (const notADomain of ['Acme Analytics', 'acme', '127.0.0.1', 'javascript:alert(1)', 'ftp://acme.com', 'user@acme.com', 'acme.com:80', '', 'https://']) {
      expect(normalizeDomain(notADomain), notADomain).toBeUndefined();
    }
  });

  it('stores the profile domain and competitors normalized', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/profile', {
      key: org.key,
      method: 'PUT',
      body: { ...FINISHED_PROFILE, domain: 'https://www.Acme.com/', competitors: ['WWW.globex.com.', 'http://initech.io/about'] },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ profile: { domain: 'acme.com', competitors: ['globex.com', 'initech.io'] } });
  });

  it('reads every form the same in a research source policy', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const brief = async (include: string) => {
      const response = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics pricing', sourcePolicy: { include: [include] } } });
      expect(response.status, include).toBe(200);
      return (await response.text()).replace(/^_.*_$/m, '');
    };
    const expected = await brief('acme.com');
    expect(expected).toContain('https://acme.com/pricing');
    expect(expected).not.toContain('reviewhub.example');
    for (const form of FORMS) expect(await brief(form), form).toBe(expected);
  });

  it('finds a domain in both include and exclude, whatever its form', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands/research', {
      key: org.key,
      body: { topic: 'pricing', sourcePolicy: { include: ['www.acme.com'], exclude: ['https://ACME.com/'] } },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_input', details: [{ path: 'sourcePolicy.exclude.0', message: expect.stringContaining('acme.com is in both') }] });
  });

  it('analyses the same company in competitors, over REST and MCP', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const expected = await (await call('/api/v1/commands/competitors', { key: org.key, body: { company: 'acme.com' } })).text();
    expect(expected).toMatch(/^# Competitors of Acme Analytics/);
    for (const form of FORMS) {
      expect(await (await call('/api/v1/commands/competitors', { key: org.key, body: { company: form } })).text(), form).toBe(expected);
    }
    const client = await connectMcpClient(org.key);
    const result = await client.callTool({ name: 'competitors', arguments: { company: 'https://WWW.Acme.com/' } });
    expect(result.content).toEqual([{ type: 'text', text: expected }]);
    await client.close();
  });

  it('audits the same company in gtm-audit, over REST and MCP', async () => {
    const org = await createOrganization();
    for (const form of FORMS) {
      const start = await call('/api/v1/commands/gtm-audit', { key: org.key, body: { company: form, focus: ['pricing'] } });
      expect(start.status, form).toBe(202);
      const run = await env.RUNS.get(env.RUNS.idFromString(start.headers.get('X-Run-Id')!)).read();
      expect(run?.target, form).toBe('acme.com');
    }
    const client = await connectMcpClient(org.key);
    const started = await client.callTool({ name: 'gtm-audit', arguments: { company: 'ACME.com.', focus: ['pricing'] } });
    expect(started.isError).toBeFalsy();
    const { runId } = started.structuredContent as { runId: string };
    expect((await env.RUNS.get(env.RUNS.idFromString(runId)).read())?.target).toBe('acme.com');
    await client.close();
  });

  it('keys imported companies by the normalized domain', async () => {
    const org = await createOrganization();
    const lines = [
      { type: 'company', key: 'https://WWW.Acme.com/', properties: { name: 'Acme Analytics', domain: 'ACME.com.' } },
      { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics', domain: 'https://www.acme.com/about' } },
    ];
    const response = await call('/api/v1/oms/objects/import', {
      key: org.key,
      method: 'POST',
      rawBody: lines.map((line) => JSON.stringify(line)).join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    // Both keys are the same company, so the import applies the last line only (repeated keys).
    expect(await response.json()).toMatchObject({ failed: 0, superseded: 1, supersededLines: [{ line: 1, by: 2 }] });
    const rows = await env.DB.prepare("SELECT key, properties FROM objects WHERE organization_id = ? AND type = 'company'").bind(org.id).all<{ key: string; properties: string }>();
    expect(rows.results.map((row) => [row.key, JSON.parse(row.properties).domain])).toEqual([['acme.com', 'acme.com']]);
  });
});

describe('normalizeHost', () => {
  it('keeps every label of a host written alone, lower-cased, without a trailing dot, an IDN in its xn-- form', () => {
    expect(normalizeHost(' Docs.Acme.Example. ')).toBe('docs.acme.example');
    expect(normalizeHost('www.acme.example')).toBe('www.acme.example');
    expect(normalizeHost('blog.bücher.de')).toBe('blog.xn--bcher-kva.de');
  });

  it('refuses a URL, a port, a path, a user, an address or a name without a top-level domain', () => {
    for (const input of ['https://docs.acme.example/', 'docs.acme.example:8443', 'docs.acme.example/guide', 'me@docs.acme.example', '10.0.0.7', '[::1]', 'localhost', 'docs acme.example', '']) {
      expect(normalizeHost(input), input).toBeUndefined();
    }
  });
});
