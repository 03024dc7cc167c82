import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { operationById } from '../../src/operations/index.ts';
import type { AddedSource as Added } from '../../src/oms/import-pages.ts';
import { addSources } from '../../src/operations/oms/add-sources.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { fixtureOrigin, fixturePage, loopbackFetch } from '../helpers/fixture-pages.ts';
import { requestDbOver } from '../helpers/request-db.ts';

// Every URL sent through the Worker (its own fetch) is on loopback: the fixture server
// (test/global-setup/fixture-pages.ts), allowed because the Workers pool sets SOURCES_ALLOW_LOCAL_HTTP
// as `npm run dev` does, or a loopback address the policy refuses (127.0.0.2), so that even a broken
// guard could send nothing past loopback. Private, link-local and metadata addresses are sent only
// to the operation with loopbackFetch (nothing past loopback is ever sent; an attempt is recorded),
// here and after redirects in test/oms/fetch-source.test.ts.

async function addSourcesOf(key: string, body: unknown): Promise<{ status: number; body: { results: Added[] } & Record<string, unknown> }> {
  const response = await call('/api/v1/oms/sources', { key, body });
  return { status: response.status, body: await response.json() };
}

async function getSource(key: string, url: string) {
  const response = await call('/api/v1/oms/objects/get', { key, body: { type: 'source', key: url } });
  return { status: response.status, body: await response.json<{ properties: Record<string, unknown>; version: number }>() };
}

async function setMutable(name: string, html: string): Promise<string> {
  await fetch(fixturePage(`/mutable/${name}`), { method: 'PUT', body: html });
  return fixturePage(`/mutable/${name}`);
}

describe('POST /api/v1/oms/sources', () => {
  it('fetches each URL and imports it as a source through the import path, reporting each in the order sent', async () => {
    const org = await createOrganization();
    const urls = [fixturePage('/zephyr-pricing'), fixturePage('/pdf'), fixturePage('/plain'), fixturePage('/not-found'), fixturePage('/huge-declared')];
    const { status, body } = await addSourcesOf(org.key, { urls });
    expect(status).toBe(200);
    expect(body.results).toEqual([
      { url: urls[0], status: 'imported', key: urls[0], title: 'Zephyr Robotics pricing & plans', bytes: expect.any(Number) },
      { url: urls[1], status: 'failed', error: 'the page is application/pdf; only HTML (text/html) and plain text (text/plain) can be added' },
      { url: urls[2], status: 'imported', key: urls[2], title: 'Zephyr Robotics release notes', bytes: 65 },
      { url: urls[3], status: 'failed', error: 'HTTP 404 Not Found' },
      { url: urls[4], status: 'failed', error: 'the page is 3 MiB (Content-Length); at most 2 MiB is read' },
    ]);

    const stored = await getSource(org.key, urls[0]!);
    expect(stored.status).toBe(200);
    expect(stored.body.properties).toMatchObject({
      title: 'Zephyr Robotics pricing & plans',
      url: urls[0],
      domain: '127.0.0.1',
      publishedAt: '2026-10-01',
      content: expect.stringContaining('Zephyr Robotics charges $4,200 per robot per month for its Fleet plan, billed annually.'),
    });
    expect(stored.body.properties.content).not.toContain('must not be imported');
    const provenance = await call('/api/v1/oms/objects/provenance', { key: org.key, body: { type: 'source', key: urls[0] } });
    const { properties } = await provenance.json<{ properties: { name: string; source: { kind: string; id: string; url?: string } }[] }>();
    expect(properties.find((p) => p.name === 'content')!.source).toEqual({ kind: 'import', id: expect.stringMatching(/^imp_/), url: urls[0] });
    const passages = await env.DB.prepare('SELECT COUNT(*) AS n FROM passages WHERE organization_id = ? AND source_key = ?').bind(org.id, urls[0]).first<{ n: number }>();
    expect(passages!.n).toBeGreaterThan(0);
    // Failed URLs wrote nothing.
    expect((await getSource(org.key, urls[1]!)).status).toBe(404);
  });

  it('reports a page it already holds as unchanged, and a page whose text changed as imported again, with history', async () => {
    const org = await createOrganization();
    const url = await setMutable(`m-${crypto.randomUUID()}`, '<title>Plans</title><p>The Team plan costs $49 per seat per month.</p>');
    expect((await addSourcesOf(org.key, { urls: [url] })).body.results[0]).toMatchObject({ status: 'imported', key: url });
    expect((await addSourcesOf(org.key, { urls: [url] })).body.results[0]).toMatchObject({ status: 'unchanged', key: url, title: 'Plans' });
    await setMutable(url.split('/mutable/')[1]!, '<title>Plans</title><p>The Team plan now costs $59 per seat per month.</p>');
    expect((await addSourcesOf(org.key, { urls: [url] })).body.results[0]).toMatchObject({ status: 'imported', key: url });
    const stored = await getSource(org.key, url);
    expect(stored.body).toMatchObject({ version: 2, properties: { content: 'The Team plan now costs $59 per seat per month.' } });
  });

  it('keys a redirected page by the URL it was read from, and reports redirects it refused or gave up on', async () => {
    const org = await createOrganization();
    const refusedHost = new URL(fixtureOrigin());
    refusedHost.hostname = '127.0.0.2';
    const urls = [
      fixturePage('/chain/2'),
      fixturePage('/loop-a'),
      fixturePage(`/to?location=${encodeURIComponent(refusedHost.href)}`),
      fixturePage('/chain/6'),
    ];
    const { body } = await addSourcesOf(org.key, { urls });
    expect(body.results).toEqual([
      { url: urls[0], status: 'imported', key: fixturePage('/zephyr-pricing'), title: 'Zephyr Robotics pricing & plans', bytes: expect.any(Number) },
      { url: urls[1], status: 'failed', error: `a redirect loop: ${fixturePage('/loop-a')} was already visited` },
      {
        url: urls[2],
        status: 'failed',
        error: `the redirect to ${refusedHost.href} was not followed: the URL must point at a public address, not 127.0.0.2 (a loopback address); in local development, only localhost, 127.0.0.1 and [::1] are allowed besides public hosts`,
      },
      { url: urls[3], status: 'failed', error: `more than 5 redirects; the last one pointed to ${fixturePage('/zephyr-pricing')}` },
    ]);
  });

  it('fetches 20 URLs at most 4 at a time and answers them in the order sent', async () => {
    const org = await createOrganization();
    const id = crypto.randomUUID();
    const urls = Array.from({ length: 20 }, (_, n) => fixturePage(`/batch/${id}/${n}`));
    const { status, body } = await addSourcesOf(org.key, { urls });
    expect(status).toBe(200);
    expect(body.results.map((r) => [r.url, r.status, r.title])).toEqual(urls.map((url, n) => [url, 'imported', `Batch page ${n}`]));
    expect(await (await fetch(fixturePage(`/batch-stats/${id}`))).json()).toEqual({ now: 0, max: 4 });
  });
});

describe('POST /api/v1/oms/sources refuses bad input whole, before fetching or writing anything', () => {
  /** [body, the details]. Each request also holds a good URL, which must not be fetched. */
  const CASES: Array<[(good: string) => unknown, Array<{ path: string; message: unknown }> | ((good: string) => Array<{ path: string; message: string }>)]> = [
    [() => ({}), [{ path: 'urls', message: expect.stringMatching(/^urls is required: a list of 1 to 20/) }]],
    [() => ({ urls: [] }), [{ path: 'urls', message: expect.stringMatching(/^urls must be a list of 1 to 20/) }]],
    [(good) => ({ urls: Array.from({ length: 21 }, () => good) }), [{ path: 'urls', message: expect.stringMatching(/^urls must be a list of 1 to 20/) }]],
    [(good) => ({ urls: good }), [{ path: 'urls', message: expect.stringMatching(/^urls must be a list/) }]],
    [(good) => ({ urls: [good], url: good }), [{ path: 'url', message: "unknown field 'url'" }]],
    [
      (good) => ({ urls: [good, 'ftp://files.example.com/a', 'not a url', 'javascript:alert(1)'] }),
      [
        { path: 'urls.1', message: 'urls.1 must use http or https, not ftp' },
        { path: 'urls.2', message: 'urls.2 must be an absolute URL, e.g. "https://acme.com/pricing"' },
        { path: 'urls.3', message: 'urls.3 must use http or https, not javascript' },
      ],
    ],
    [
      // Through the Worker's own fetch only addresses on loopback: a broken guard would still reach nothing else.
      (good) => ({ urls: [good, good.replace('127.0.0.1', '127.0.0.2'), good.replace('127.0.0.1', '0x7f.0.0.2'), good.replace('127.0.0.1', '[::ffff:127.0.0.2]')] }),
      [
        { path: 'urls.1', message: expect.stringContaining('urls.1 must point at a public address, not 127.0.0.2 (a loopback address)') },
        { path: 'urls.2', message: expect.stringContaining('urls.2 must point at a public address, not 127.0.0.2 (a loopback address)') },
        { path: 'urls.3', message: expect.stringContaining('urls.3 must point at a public address, not [::ffff:7f00:2] (a loopback address)') },
      ],
    ],
    [
      (good) => ({ urls: [good, `${good.replace('127.0.0.1', 'user:pw@127.0.0.1')}`, `${good}#again`] }),
      (good) => [
        { path: 'urls.1', message: 'urls.1 must not carry a user name or password (user:pass@)' },
        { path: 'urls.2', message: `urls.2 must not repeat urls.0 (${good})` },
      ],
    ],
  ];

  it.each(CASES.map((c, i) => [i, ...c] as const))('case %i', async (_, makeBody, details) => {
    const org = await createOrganization();
    const id = crypto.randomUUID();
    const good = fixturePage(`/batch/${id}/0`);
    const response = await call('/api/v1/oms/sources', { key: org.key, body: makeBody(good) });
    expect(response.status).toBe(400);
    const body = await response.json<{ error: string; message: string; details: unknown }>();
    expect(body).toMatchObject({ error: 'invalid_input', message: expect.stringMatching(/^Invalid request body: /), details: typeof details === 'function' ? details(good) : details });
    expect(await (await fetch(fixturePage(`/batch-stats/${id}`))).json()).toBeNull();
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM objects WHERE organization_id = ? AND type = 'source'").bind(org.id).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it('needs the oms:write scope, checked before the body', async () => {
    const org = await createOrganization({ scopes: ['commands', 'oms:read'] });
    const id = crypto.randomUUID();
    const response = await call('/api/v1/oms/sources', { key: org.key, body: { urls: [fixturePage(`/batch/${id}/0`)] } });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'access_denied', message: expect.stringContaining('oms:write') });
    expect(await (await fetch(fixturePage(`/batch-stats/${id}`))).json()).toBeNull();
  });

  it('spends from the commands budget, as a command does: each call may fetch 20 pages', () => {
    // Each REST route spends the bucket its operation declares (test/operations/call.test.ts).
    expect(operationById('add-sources')).toMatchObject({ bucket: 'commands', rest: { method: 'post', path: '/oms/sources' } });
    expect(operationById('import-objects')).toMatchObject({ bucket: 'reads', rest: { method: 'post', path: '/oms/objects/import' } });
  });
});

/** A core context for `org` with `env`, to call the operation with a fetch that stays on loopback. */
function coreContext(org: { id: string; slug: string; keyId: string }, environment: Env) {
  return {
    env: environment,
    db: requestDbOver(),
    principal: { organization: { id: org.id, slug: org.slug, name: org.slug }, keyId: org.keyId, scopes: ['oms:write'] as const },
    requestId: 'test',
  };
}

function deployedEnv(): Env {
  const { SOURCES_ALLOW_LOCAL_HTTP: _, ...deployed } = env as Env & { SOURCES_ALLOW_LOCAL_HTTP?: string };
  return deployed as Env;
}

describe('addSources in a deployment (the operation, its fetch kept on loopback)', () => {
  it('refuses private, link-local and cloud metadata addresses in any spelling, and internal names, before fetching', async () => {
    const org = await createOrganization();
    const outside = loopbackFetch();
    const urls = [
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:192.168.0.1]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://100.100.100.200/latest/meta-data/',
    ];
    await expect(addSources(coreContext(org, deployedEnv()), { urls }, { fetch: outside.fetch })).rejects.toMatchObject({
      code: 'invalid_input',
      details: [
        { path: 'urls.0', message: 'urls.0 must point at a public address, not 10.0.0.1 (a private address)' },
        { path: 'urls.1', message: 'urls.1 must point at a public address, not 169.254.169.254 (a link-local address)' },
        { path: 'urls.2', message: 'urls.2 must point at a public address, not 169.254.169.254 (a link-local address)' },
        { path: 'urls.3', message: 'urls.3 must point at a public address, not 169.254.169.254 (a link-local address)' },
        { path: 'urls.4', message: 'urls.4 must point at a public address, not [::ffff:a9fe:a9fe] (a link-local address)' },
        { path: 'urls.5', message: 'urls.5 must point at a public address, not [fd00:ec2::254] (a unique-local address)' },
        { path: 'urls.6', message: 'urls.6 must point at a public address, not [::ffff:c0a8:1] (a private address)' },
        { path: 'urls.7', message: 'urls.7 must point at a public host, not metadata.google.internal (a local or internal name cannot be reached from Recon)' },
        { path: 'urls.8', message: 'urls.8 must point at a public address, not 100.100.100.200 (a carrier-grade NAT address)' },
      ],
    });
    expect(outside.requested).toEqual([]);
  });

  it('imports a public page reached through a public redirect, keyed and attributed to the final public URL', async () => {
    const org = await createOrganization();
    const web = loopbackFetch(['pages.example.com']);
    const sent = 'http://pages.example.com/chain/2';
    const { results } = await addSources(coreContext(org, deployedEnv()), { urls: [sent, 'http://pages.example.com/to?location=http%3A%2F%2F169.254.169.254%2F'] }, { fetch: web.fetch });
    expect(results).toEqual([
      { url: sent, status: 'imported', key: 'http://pages.example.com/zephyr-pricing', title: 'Zephyr Robotics pricing & plans', bytes: expect.any(Number) },
      {
        url: 'http://pages.example.com/to?location=http%3A%2F%2F169.254.169.254%2F',
        status: 'failed',
        error: 'the redirect to http://169.254.169.254/ was not followed: the URL must point at a public address, not 169.254.169.254 (a link-local address)',
      },
    ]);
    expect(web.refused).toEqual([]);
    const stored = await getSource(org.key, 'http://pages.example.com/zephyr-pricing');
    expect(stored.body.properties).toMatchObject({ domain: 'pages.example.com', url: 'http://pages.example.com/zephyr-pricing' });
  });
});

describe('the local-development setting', () => {
  it('is off unless SOURCES_ALLOW_LOCAL_HTTP is "true": a deployment refuses localhost, 127.0.0.1 and [::1] before fetching', async () => {
    const org = await createOrganization();
    const deployed = deployedEnv();
    const ctx = coreContext(org, deployed);
    const id = crypto.randomUUID();
    const urls = [fixturePage(`/batch/${id}/0`), `http://localhost:${new URL(fixtureOrigin()).port}/plain`, 'http://[::1]/'];
    await expect(addSources(ctx, { urls })).rejects.toMatchObject({
      code: 'invalid_input',
      details: [
        { path: 'urls.0', message: 'urls.0 must point at a public address, not 127.0.0.1 (a loopback address)' },
        { path: 'urls.1', message: 'urls.1 must point at a public host, not localhost (a local or internal name cannot be reached from Recon)' },
        { path: 'urls.2', message: 'urls.2 must point at a public address, not [::1] (the loopback address)' },
      ],
    });
    await expect(addSources({ ...ctx, env: { ...deployed, SOURCES_ALLOW_LOCAL_HTTP: 'yes' } as Env }, { urls })).rejects.toThrow(
      /SOURCES_ALLOW_LOCAL_HTTP: must be "true" or "false"/,
    );
    expect(await (await fetch(fixturePage(`/batch-stats/${id}`))).json()).toBeNull();
  });
});
