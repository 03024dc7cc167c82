import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError } from '../../src/ground/errors.ts';
import { parseInput } from '../../src/ground/validation.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

interface ErrorJson {
  error: string;
  message: string;
  details?: { path: string; message: string }[];
  requestId?: string;
}

/** What zod says when nobody customizes its messages; none of it may reach a client. */
const ZOD_INTERNALS = /Invalid input|Invalid option|expected \w+, received|Too small|Too big|Unrecognized key|expected one of/;

// Each case: a command, its arguments, and every detail the 400 must carry, in order.
const CASES: [string, Record<string, unknown>, { path: string; message: string }[]][] = [
  ['research', {}, [{ path: 'topic', message: 'topic is required: a string of 1 to 500 characters' }]],
  ['research', { topic: '   ' }, [{ path: 'topic', message: 'topic must be a string of 1 to 500 characters' }]],
  ['research', { topic: 42 }, [{ path: 'topic', message: 'topic must be a string of 1 to 500 characters, not a number' }]],
  ['research', { topic: 'x', tier: 'deep' }, [{ path: 'tier', message: 'tier must be one of "lite", "base", not "deep"' }]],
  [
    'research',
    { topci: 'pricing' },
    [
      { path: 'topic', message: 'topic is required: a string of 1 to 500 characters' },
      { path: 'topci', message: "unknown field 'topci' (did you mean 'topic'?)" },
    ],
  ],
  [
    'research',
    { topic: 'x', sourcePolicy: { include: ['ftp://a.com/x'], exclud: [] } },
    [
      { path: 'sourcePolicy.include.0', message: 'sourcePolicy.include.0 must be a domain such as acme.com, or a URL such as https://acme.com' },
      { path: 'sourcePolicy.exclud', message: "unknown field 'sourcePolicy.exclud' (did you mean 'sourcePolicy.exclude'?)" },
    ],
  ],
  [
    'research',
    { topic: 'x', sourcePolicy: { include: Array.from({ length: 26 }, (_, i) => `d${i}.com`) } },
    [{ path: 'sourcePolicy.include', message: 'sourcePolicy.include must be a list of at most 25 items' }],
  ],
  [
    'research',
    { topic: 'x', sourcePolicy: 'acme.com' },
    [{ path: 'sourcePolicy', message: 'sourcePolicy must be an object with the fields include, exclude, not a string' }],
  ],
  ['competitors', { limit: 0 }, [{ path: 'limit', message: 'limit must be an integer from 1 to 25' }]],
  ['competitors', { limit: 26 }, [{ path: 'limit', message: 'limit must be an integer from 1 to 25' }]],
  ['competitors', { limit: 2.5 }, [{ path: 'limit', message: 'limit must be an integer from 1 to 25, not 2.5' }]],
  ['competitors', { limit: '5' }, [{ path: 'limit', message: 'limit must be an integer from 1 to 25, not a string' }]],
  ['gtm-audit', { focus: ['pricing', 'pricing'] }, [{ path: 'focus', message: 'focus must not repeat an area' }]],
  [
    'gtm-audit',
    { focus: ['weather'] },
    [{ path: 'focus.0', message: 'focus.0 must be one of "positioning", "icp", "pricing", "channels", "competition", "content", not "weather"' }],
  ],
  [
    'gtm-audit',
    { focus: 'pricing' },
    [
      {
        path: 'focus',
        message: 'focus must be a list of 1 to 6 items, each one of "positioning", "icp", "pricing", "channels", "competition", "content", not a string',
      },
    ],
  ],
  ['gtm-audit', { company: 'not a domain' }, [{ path: 'company', message: 'company must be a domain such as acme.com, or a URL such as https://acme.com' }]],
  ['audit', { userContext: 42 }, [{ path: 'userContext', message: 'userContext must be a string of at most 4000 characters, not a number' }]],
  ['help', { verbose: true }, [{ path: 'verbose', message: "unknown field 'verbose'" }]],
];

describe('validation messages name the field and what it allows', () => {
  it.each(CASES)('REST %s %j', async (command, args, details) => {
    const org = await createOrganization();
    const response = await call(`/api/v1/commands/${command}`, { key: org.key, body: args });
    expect(response.status).toBe(400);
    const body = await response.json<ErrorJson>();
    expect(body.error).toBe('invalid_input');
    expect(body.details).toEqual(details);
    expect(body.message).toBe(`Invalid arguments of ${command}: ${details.map((d) => d.message).join('; ')}.`);
    expect(body.message).not.toMatch(ZOD_INTERNALS);
  });

  it('MCP gives the same code, message and details as REST for every case, and writes nothing', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    for (const [command, args] of CASES) {
      const { requestId: _, ...rest } = await (await call(`/api/v1/commands/${command}`, { key: org.key, body: args })).json<ErrorJson>();
      const result = await client.callTool({ name: command, arguments: args });
      expect(result.isError, command).toBe(true);
      const { requestId: __, ...structured } = result.structuredContent as unknown as ErrorJson;
      expect(structured).toEqual(rest);
      expect((result.content as { text: string }[])[0]!.text).toContain(rest.message);
    }
    await client.close();
    const runs = await (await call('/api/v1/runs', { key: org.key })).json<{ runs: unknown[] }>();
    expect(runs.runs).toEqual([]);
  });

  it('MCP run-status names its fields the same way', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    const result = await client.callTool({ name: 'run-status', arguments: { kind: 'audits', id: '' } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as unknown as ErrorJson).details).toEqual([
      { path: 'kind', message: 'kind must be one of "gtm-audit", "audit", "site-read", not "audits"' },
      { path: 'id', message: 'id must be a string of 1 to 100 characters' },
    ]);
    await client.close();
  });

  it('the profile names nested fields and suggests the field meant', async () => {
    const org = await createOrganization({ profile: 'none' });
    const response = await call('/api/v1/profile', {
      key: org.key,
      method: 'PUT',
      body: { companyName: '', icp: { industry: ['SaaS'] }, competitors: [42] },
    });
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).details).toEqual([
      { path: 'companyName', message: 'companyName must be a string of 1 to 200 characters' },
      { path: 'icp.industry', message: "unknown field 'icp.industry' (did you mean 'icp.industries'?)" },
      { path: 'competitors.0', message: 'competitors.0 must be a domain such as acme.com, or a URL such as https://acme.com' },
    ]);
    const profile = await (await call('/api/v1/profile', { key: org.key })).json<{ profile: { companyName?: string } }>();
    expect(profile.profile.companyName).toBeUndefined();
  });

  it('query parameters get the same messages', async () => {
    const org = await createOrganization();
    const runs = await call('/api/v1/runs?limit=0', { key: org.key });
    expect(runs.status).toBe(400);
    expect((await runs.json<ErrorJson>()).details).toEqual([{ path: 'limit', message: 'limit must be an integer from 1 to 100' }]);
    const audit = await call('/api/v1/audit?wait=yes', { key: org.key, body: {} });
    expect(audit.status).toBe(400);
    expect(await audit.json<ErrorJson>()).toMatchObject({
      message: 'Invalid query: wait must be one of "0", "1", "true", "false", not "yes".',
      details: [{ path: 'wait', message: 'wait must be one of "0", "1", "true", "false", not "yes"' }],
    });
  });

  it('a new schema gets readable messages without any text of its own', () => {
    const Schema = z.strictObject({
      count: z.int().min(2).max(9),
      code: z.string().length(3),
      email: z.email(),
      kind: z.enum(['a', 'b']),
      tags: z.array(z.string()).min(1),
      enabled: z.boolean(),
    });
    let error: unknown;
    try {
      parseInput(Schema, { count: 10, code: 'ab', email: 'nope', kind: 'c', tags: [], enabled: 'yes', Count: 1 }, 'settings');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).details).toEqual([
      { path: 'count', message: 'count must be an integer from 2 to 9' },
      { path: 'code', message: 'code must be a string of exactly 3 characters' },
      { path: 'email', message: 'email must be an email address' },
      { path: 'kind', message: 'kind must be one of "a", "b", not "c"' },
      { path: 'tags', message: 'tags must be a list of at least 1 item' },
      { path: 'enabled', message: 'enabled must be true or false, not a string' },
      { path: 'Count', message: "unknown field 'Count'" },
    ]);
    expect(() => parseInput(Schema.shape.count, undefined, 'count')).toThrow('Invalid count: count is required: an integer from 2 to 9.');
  });
});
