import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/operations/commands/command-operations.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';

interface ErrorJson {
  error: string;
  message: string;
  details?: { path: string; message: string }[];
}

describe('GET /api/v1/commands', () => {
  it('returns the markdown catalog with every command, its mode, arguments and an example', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands', { key: org.key });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/markdown/);
    const markdown = await response.text();
    expect(markdown).toMatch(/^# Recon commands/);
    for (const command of COMMANDS) {
      expect(markdown).toContain(`## ${command.id}`);
      expect(markdown).toContain(`| \`${command.id}\` | ${command.command!.mode} |`);
      expect(markdown).toContain(`$RECON_URL/api/v1/commands/${command.id}`);
    }
    // Types and limits come from the zod schemas.
    expect(markdown).toMatch(/\| `topic` \| string \| yes \| .*1-500 characters/);
    expect(markdown).toMatch(/\| `tier` \| "lite" \\\| "base" \| no \| .*default "lite"/);
    expect(markdown).toMatch(/\| `limit` \| integer \| no \| How many competitors to return, 1-25 \(default 10\)\. \|/);
  });
});

describe('POST /api/v1/commands/help', () => {
  it('returns the same catalog, even before onboarding', async () => {
    const org = await createOrganization({ profile: 'none' });
    const catalog = await (await call('/api/v1/commands', { key: org.key })).text();
    const response = await call('/api/v1/commands/help', { key: org.key, method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/markdown/);
    expect(await response.text()).toBe(catalog);
  });
});

describe('POST /api/v1/commands/{command}', () => {
  it('answers an unknown command with 404 not_found naming the commands', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands/reserch', { key: org.key, body: { topic: 'x' } });
    expect(response.status).toBe(404);
    const body = await response.json<ErrorJson>();
    expect(body.error).toBe('not_found');
    expect(body.message).toContain("Unknown command 'reserch'");
    expect(body.message).toContain('research');
  });

  it('rejects an unknown field, naming it', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands/research', { key: org.key, body: { topci: 'pricing' } });
    expect(response.status).toBe(400);
    const body = await response.json<ErrorJson>();
    expect(body.error).toBe('invalid_input');
    expect(body.details).toEqual(
      expect.arrayContaining([
        { path: 'topci', message: "unknown field 'topci' (did you mean 'topic'?)" },
        { path: 'topic', message: 'topic is required: a string of 1 to 500 characters' },
      ]),
    );
  });

  it.each([
    ['research', { topic: '' }, 'topic'],
    ['research', { topic: 'x'.repeat(501) }, 'topic'],
    ['research', { topic: 'x', tier: 'deep' }, 'tier'],
    ['research', { topic: 'x', sourcePolicy: { include: ['ftp://a.com/x'] } }, 'sourcePolicy.include.0'],
    ['research', { topic: 'x', sourcePolicy: { include: ['a.com'], exclude: ['a.com'] } }, 'sourcePolicy.exclude.0'],
    ['research', { topic: 'x', sourcePolicy: { include: Array.from({ length: 26 }, (_, i) => `d${i}.com`) } }, 'sourcePolicy.include'],
    ['competitors', { limit: 0 }, 'limit'],
    ['competitors', { limit: 26 }, 'limit'],
    ['competitors', { limit: 2.5 }, 'limit'],
    ['gtm-audit', { company: 'not a domain' }, 'company'],
    ['gtm-audit', { focus: ['pricing', 'pricing'] }, 'focus'],
    ['gtm-audit', { focus: ['weather'] }, 'focus.0'],
    ['audit', { userContext: 42 }, 'userContext'],
    ['help', { verbose: true }, 'verbose'],
  ])('%s rejects %j at %s with 400', async (command, body, path) => {
    const org = await createOrganization();
    const response = await call(`/api/v1/commands/${command}`, { key: org.key, body });
    expect(response.status).toBe(400);
    const error = await response.json<ErrorJson>();
    expect(error.error).toBe('invalid_input');
    expect(error.details?.map((d) => d.path)).toContain(path);
    expect(error.message).toContain(path);
  });

  it('rejects malformed JSON with 400', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands/research', {
      key: org.key,
      method: 'POST',
      rawBody: '{"topic": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_input', message: expect.stringMatching(/not valid JSON/) });
  });

  it.each(['[]', '"topic"', 'null', '42'])('rejects the non-object body %s with 400', async (rawBody) => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands/research', { key: org.key, method: 'POST', rawBody });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_input', message: expect.stringMatching(/JSON object/) });
  });

  it('rejects a body over 256 KiB with 413, declared or streamed', async () => {
    const org = await createOrganization();
    const big = JSON.stringify({ topic: 'x', userContext: 'y'.repeat(256 * 1024) });
    const declared = await call('/api/v1/commands/research', { key: org.key, method: 'POST', rawBody: big });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: 'payload_too_large' });

    const stream = new Blob([big]).stream();
    const streamed = await call('/api/v1/commands/research', { key: org.key, method: 'POST', rawBody: stream });
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('accepts a body just under 256 KiB as far as size goes', async () => {
    const org = await createOrganization();
    const padding = 256 * 1024 - JSON.stringify({ topic: 'x', userContext: '' }).length;
    const body = JSON.stringify({ topic: 'x', userContext: 'y'.repeat(padding) });
    const response = await call('/api/v1/commands/research', { key: org.key, method: 'POST', rawBody: body });
    // Not 413: the size is fine; the 4000-character userContext limit is what rejects it.
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).details?.[0]?.path).toBe('userContext');
  });
});
