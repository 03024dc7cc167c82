import type { ServerContext } from '@modelcontextprotocol/server';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/ground/config.ts';
import type { WatchView } from '../../src/ground/schemas/watch.ts';
import { questionBinding, questionCodec } from '../../src/mcp/questions.ts';
import { call, createKey, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { connectModernMcpClient, modernToolCall, type ElicitationAnswer, type ElicitationRequest } from '../helpers/modern-mcp-client.ts';
import { importLines, requestCount } from '../operations/action-helpers.ts';
import { untilExecutions } from '../watches/helpers.ts';

const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[]).map((part) => part.text).join('');

/** The answers a person gives the onboarding form (lists comma-separated, as the form says). */
const ANSWERS = {
  companyName: 'Globex',
  domain: 'https://www.Globex.com/',
  offering: 'Supply-chain software for mid-size manufacturers',
  'icp.industries': 'Manufacturing, Retail',
  'icp.companySizes': '201-1000',
  'icp.regions': 'Europe',
  'icp.personas': 'COO, VP Operations',
  competitors: 'initech.com, umbrella.com',
};

/** The same answers as the body PUT /api/v1/profile takes. */
const answersAsBody = (answers: Record<string, string>) => ({
  companyName: answers.companyName,
  domain: answers.domain,
  offering: answers.offering,
  icp: {
    industries: answers['icp.industries']!.split(', '),
    companySizes: answers['icp.companySizes']!.split(', '),
    regions: answers['icp.regions']!.split(', '),
    personas: answers['icp.personas']!.split(', '),
  },
  competitors: answers.competitors!.split(', '),
  valueProps: [],
});

/** A v2 client that answers every form with `answer`, and the forms it was asked. */
async function answering(key: string, answer: (request: ElicitationRequest) => ElicitationAnswer) {
  const asked: ElicitationRequest[] = [];
  const client = await connectModernMcpClient(key, {
    elicitation: (request) => {
      asked.push(request);
      return answer(request);
    },
  });
  return { client, asked };
}

const profileOf = async (org: TestOrganization) => (await call('/api/v1/profile', { key: org.key })).json<{ complete: boolean; missing: string[]; updatedAt: string | null; profile: Record<string, unknown> }>();

const FORMS = { elicitation: { form: {} } };

describe('onboarding asked in the client (2026-07-28)', () => {
  it('asks for the missing profile fields with the profile schema, saves the answers as PUT /profile does, then runs the command', async () => {
    const org = await createOrganization({ profile: 'none' });
    const { missing } = await profileOf(org);
    const { client, asked } = await answering(org.key, () => ({ action: 'accept', content: ANSWERS }));

    const brief = await client.callTool({ name: 'research', arguments: { topic: 'Globex pricing' } });
    expect(brief.isError).toBeFalsy();
    expect(textOf(brief)).toMatch(/^# Research brief: Globex pricing/);

    expect(asked).toHaveLength(1);
    const form = asked[0]!;
    expect(form.message).toContain(`missing: ${missing.join(', ')}`);
    // Required: exactly what onboarding misses; the optional lists still empty are asked too.
    expect(form.requestedSchema.required).toEqual(missing);
    expect(Object.keys(form.requestedSchema.properties)).toEqual([...missing, 'competitors', 'valueProps']);
    // The rules of the profile schema, flat: strings keep their limits, lists are one comma-separated string.
    expect(form.requestedSchema.properties.companyName).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(form.requestedSchema.properties.offering).toMatchObject({ type: 'string', minLength: 1, maxLength: 2000 });
    expect(form.requestedSchema.properties['icp.regions']).toMatchObject({ type: 'string', title: 'ICP: regions' });
    expect(form.requestedSchema.properties.competitors!.description).toMatch(/^Domains of known competitors .* separated by commas\.$/);

    // Saved as PUT /api/v1/profile saves the same body (the domain normalized, lists split).
    const after = await profileOf(org);
    expect(after).toMatchObject({ complete: true, missing: [] });
    const other = await createOrganization({ profile: 'none' });
    const put = await (await call('/api/v1/profile', { key: other.key, method: 'PUT', body: answersAsBody(ANSWERS) })).json<{ profile: unknown }>();
    expect(after.profile).toEqual(put.profile);
    expect(after.profile).toMatchObject({ domain: 'globex.com', icp: { personas: ['COO', 'VP Operations'] }, competitors: ['initech.com', 'umbrella.com'] });
    await client.close();
  });

  it('asks only for what is still missing, and starts the gtm-audit run once answered', async () => {
    const org = await createOrganization({ profile: 'none' });
    const partial = { companyName: 'Globex', domain: 'globex.com', offering: 'Supply-chain software', icp: { industries: ['Manufacturing'], companySizes: [], regions: ['Europe'], personas: [] }, competitors: ['initech.com'] };
    expect((await call('/api/v1/profile', { key: org.key, method: 'PUT', body: partial })).status).toBe(200);
    const { client, asked } = await answering(org.key, () => ({ action: 'accept', content: { 'icp.companySizes': '201-1000', 'icp.personas': 'COO' } }));

    const started = await client.callTool({ name: 'gtm-audit', arguments: { company: 'globex.com' } });
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ kind: 'gtm-audit', status: 'running' });
    expect(Object.keys(asked[0]!.requestedSchema.properties)).toEqual(['icp.companySizes', 'icp.personas', 'valueProps']);
    expect((await profileOf(org)).profile).toMatchObject({ ...partial, icp: { ...partial.icp, companySizes: ['201-1000'], personas: ['COO'] } });
    await client.close();
  });

  it('refuses an invalid answer with the message PUT /api/v1/profile gives, and saves nothing', async () => {
    const org = await createOrganization({ profile: 'none' });
    const bad = { ...ANSWERS, domain: 'not a domain' };
    const { client } = await answering(org.key, () => ({ action: 'accept', content: bad }));

    const result = await client.callTool({ name: 'competitors', arguments: { company: 'globex.com' } });
    const rest = await call('/api/v1/profile', { key: org.key, method: 'PUT', body: answersAsBody(bad) });
    expect(rest.status).toBe(400);
    const { message, details } = await rest.json<{ message: string; details: unknown }>();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'invalid_input', message, details });
    expect(message).toMatch(/^Invalid request body: domain must be a domain such as acme\.com/);
    expect(await profileOf(org)).toMatchObject({ complete: false, updatedAt: null });
    await client.close();
  });

  it.each(['decline', 'cancel'] as const)('answers %s with the onboarding_required refusal of today, and saves nothing', async (action) => {
    const org = await createOrganization({ profile: 'none' });
    const { client, asked } = await answering(org.key, () => ({ action }));
    const result = await client.callTool({ name: 'research', arguments: { topic: 'Globex pricing' } });
    expect(asked).toHaveLength(1);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'onboarding_required' });
    expect(textOf(result)).toContain('set-profile');
    expect(await profileOf(org)).toMatchObject({ updatedAt: null });
    await client.close();
  });

  it('refuses a client without elicitation as before: no input request, the same refusal as the 2025 door', async () => {
    const org = await createOrganization({ profile: 'none' });
    const modern = await connectModernMcpClient(org.key);
    const legacy = await connectMcpClient(org.key);
    const refused = await modern.callTool({ name: 'research', arguments: { topic: 'Globex pricing' } });
    const before = await legacy.callTool({ name: 'research', arguments: { topic: 'Globex pricing' } });
    expect(refused.isError).toBe(true);
    const { requestId: _a, ...body } = refused.structuredContent as Record<string, unknown>;
    const { requestId: _b, ...legacyBody } = before.structuredContent as Record<string, unknown>;
    expect(body).toEqual(legacyBody);
    expect(body).toMatchObject({ error: 'onboarding_required' });

    // On the wire: a complete result, never an input request, when the envelope declares no elicitation.
    const raw = await modernToolCall(org.key, 'research', { topic: 'Globex pricing' }, { capabilities: { sampling: {} } });
    expect(raw.body.result).toMatchObject({ resultType: 'complete', isError: true, structuredContent: { error: 'onboarding_required' } });
    await modern.close();
    await legacy.close();
  });

  it('runs a command at once when the profile is finished: nothing is asked', async () => {
    const org = await createOrganization();
    const { client, asked } = await answering(org.key, () => ({ action: 'decline' }));
    expect((await client.callTool({ name: 'research', arguments: { topic: 'Globex pricing' } })).isError).toBeFalsy();
    expect(asked).toEqual([]);
    await client.close();
  });
});

describe('watch-create confirms its cost cap in the client (2026-07-28)', () => {
  const WATCH = { target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 10_000 };
  const watchesOf = async (org: TestOrganization) => (await (await call('/api/v1/oms/watches', { key: org.key })).json<{ watches: WatchView[] }>()).watches;

  async function orgWithGlobex() {
    const org = await createOrganization();
    await importLines(org, [{ type: 'company', key: 'globex.com', properties: { name: 'Globex' } }]);
    return org;
  }

  it('shows the price per execution, the cap and the executions it pays for, and creates the watch once confirmed', async () => {
    const org = await orgWithGlobex();
    const { client, asked } = await answering(org.key, () => ({ action: 'accept', content: { confirm: true } }));
    const created = await client.callTool({ name: 'watch-create', arguments: WATCH });
    expect(created.isError).toBeFalsy();
    const watch = created.structuredContent as unknown as WatchView;
    expect(watch).toMatchObject({ target: { type: 'company', key: 'globex.com' }, tier: 'lite', costCapMicros: 10_000 });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toBe(
      'Create a lite watch of company globex.com, every 1d? Each execution costs 3,000 micros ($0.0030); the cap of 10,000 micros ($0.0100) ' +
        'pays for 3 execution(s), after which the watch stops (capped). The first execution runs now.',
    );
    expect(asked[0]!.requestedSchema).toMatchObject({ properties: { confirm: { type: 'boolean', title: 'Create this watch' } }, required: ['confirm'] });
    expect((await watchesOf(org)).map((w) => w.id)).toEqual([watch.id]);
    await untilExecutions(watch.id, 1);
    await client.close();
  });

  it.each([
    ['declined', { action: 'decline' }],
    ['cancelled', { action: 'cancel' }],
    ['answered no', { action: 'accept', content: { confirm: false } }],
  ] as const)('writes nothing when %s, and says so', async (_how, answer) => {
    const org = await orgWithGlobex();
    const { client } = await answering(org.key, () => answer);
    const result = await client.callTool({ name: 'watch-create', arguments: WATCH });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Watch not created: the lite watch of company globex.com, every 1d (cap 10,000 micros ($0.0100)) was declined. Nothing was written and nothing was charged.');
    expect(await watchesOf(org)).toEqual([]);
    await client.close();
  });

  it('refuses a watch the core refuses before asking anything', async () => {
    const org = await createOrganization();
    const { client, asked } = await answering(org.key, () => ({ action: 'accept', content: { confirm: true } }));
    // A webhook URL the deployment's policy refuses (plain http to a public host).
    const result = await client.callTool({ name: 'watch-create', arguments: { ...WATCH, webhook: { url: 'http://hooks.example.com/x' } } });
    expect(result.structuredContent).toMatchObject({ error: 'invalid_input', message: expect.stringContaining('webhook.url') });
    expect(asked).toEqual([]);
    await client.close();
  });

  it('creates at once for a client without elicitation, as before', async () => {
    const org = await orgWithGlobex();
    const client = await connectModernMcpClient(org.key);
    const created = await client.callTool({ name: 'watch-create', arguments: WATCH });
    expect(created.isError).toBeFalsy();
    const watch = created.structuredContent as unknown as WatchView;
    expect((await watchesOf(org)).map((w) => w.id)).toEqual([watch.id]);
    await untilExecutions(watch.id, 1);
    await client.close();
  });
});

describe('action-request shows its diff in the client before it is filed (2026-07-28)', () => {
  const RENAME = { action: 'update_properties', params: { type: 'company', key: 'ACME.com', properties: { name: 'Acme Analytics', employees: 120 } }, reason: 'Renamed' };

  it('shows what would change, property by property, and files the request once confirmed', async () => {
    const org = await createOrganization();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme', employees: 120 } }]);
    const { client, asked } = await answering(org.key, () => ({ action: 'accept', content: { confirm: true } }));
    const result = await client.callTool({ name: 'action-request', arguments: RENAME });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'pending', action: 'update_properties', params: { key: 'acme.com' } });
    // Only the property that changes is shown (employees already holds 120).
    expect(asked[0]!.message).toBe(
      'File this approval request?\nChanges company acme.com:\n- name: "Acme" -> "Acme Analytics"\nNothing changes until a person with another key approves it.',
    );
    expect(await requestCount(org)).toBe(1);
    await client.close();
  });

  it('asks again when the data changed between the question and the answer: what is filed is what was confirmed', async () => {
    const org = await createOrganization();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme', employees: 120 } }]);
    const asked: ElicitationRequest[] = [];
    let renamedMeanwhile = false;
    const changing = await connectModernMcpClient(org.key, {
      elicitation: async (request) => {
        asked.push(request);
        if (!renamedMeanwhile) {
          renamedMeanwhile = true;
          await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme Corp' } }]);
        }
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const result = await changing.callTool({ name: 'action-request', arguments: RENAME });
    expect(result.isError).toBeFalsy();
    expect(asked.map((form) => form.message.split('\n')[2])).toEqual(['- name: "Acme" -> "Acme Analytics"', '- name: "Acme Corp" -> "Acme Analytics"']);
    expect(await requestCount(org)).toBe(1);
    await changing.close();
  });

  it('shows a delete and a new link as what they do', async () => {
    const org = await createOrganization();
    await importLines(org, [
      { type: 'company', key: 'acme.com', properties: { name: 'Acme' } },
      { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
    ]);
    const { client, asked } = await answering(org.key, () => ({ action: 'decline' }));
    const deleted = await client.callTool({ name: 'action-request', arguments: { action: 'delete_object', params: { type: 'company', key: 'acme.com' } } });
    const linked = await client.callTool({ name: 'action-request', arguments: { action: 'link', params: { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'globex.com' } } } });
    expect(asked.map((form) => form.message.split('\n').slice(1, -1))).toEqual([
      ['Deletes company acme.com and its links:', '- name: "Acme" -> null'],
      ['Adds the competitors link from company acme.com to company globex.com.'],
    ]);
    expect(textOf(deleted)).toBe('Approval request not filed: the delete_object was declined. Nothing was written.');
    expect(linked.isError).toBe(true);
    expect(await requestCount(org)).toBe(0);
    await client.close();
  });
});

describe('the state of a question is signed and bound', () => {
  const ARGS = { topic: 'Globex pricing' };
  const ACCEPTED = { profile: { action: 'accept', content: ANSWERS } };
  const INVALID_STATE = { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } };

  /** The first round of a research call by an organization with no profile: the state it is given. */
  async function firstRound(org: TestOrganization): Promise<string> {
    const { body } = await modernToolCall(org.key, 'research', ARGS, { capabilities: FORMS });
    expect(body.result).toMatchObject({ resultType: 'input_required' });
    return body.result!.requestState as string;
  }

  const retry = (key: string, state: string, args: Record<string, unknown> = ARGS) =>
    modernToolCall(key, 'research', args, { capabilities: FORMS, requestState: state, inputResponses: ACCEPTED });

  it('refuses a state that was tampered with, minted for another organization, key or arguments, or expired; saves nothing', async () => {
    const org = await createOrganization({ profile: 'none' });
    const state = await firstRound(org);
    const [prefix, body, mac] = [state.slice(0, 3), state.slice(3, state.lastIndexOf('.')), state.slice(state.lastIndexOf('.') + 1)];
    const payload = JSON.parse(atob(body.replaceAll('-', '+').replaceAll('_', '/'))) as { p: { fields: string[] } };
    const forged = btoa(JSON.stringify({ ...payload, p: { ...payload.p, fields: ['companyName'] } })).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    const flipped = mac.slice(0, -2) + (mac.at(-2) === 'A' ? 'B' : 'A') + mac.at(-1);

    const other = await createOrganization({ profile: 'none' });
    const secondKey = await createKey(org.id);
    const message = { method: 'tools/call', params: { name: 'research', arguments: ARGS } };
    const binding = await questionBinding({ organization: { id: org.id, slug: org.slug, name: '' }, keyId: org.keyId }, message);
    const minted = (ttlSeconds: number) => questionCodec(readConfig(env).MCP_REQUEST_STATE_SECRET!, binding!, ttlSeconds).mint(payload.p as never, {} as ServerContext);

    const refusals = {
      'a changed mac': await retry(org.key, `${prefix}${body}.${flipped}`),
      'a changed payload': await retry(org.key, `${prefix}${forged}.${mac}`),
      'not a state': await retry(org.key, 'hello'),
      'another organization': await retry(other.key, state),
      'another key of the organization': await retry(secondKey.key, state),
      'other arguments': await retry(org.key, state, { topic: 'Initech pricing' }),
      'an expired state': await retry(org.key, await minted(-60)),
    };
    for (const [what, { status, body: answer }] of Object.entries(refusals)) {
      // A JSON-RPC error of the SDK's seam, answered on the request's id (HTTP 200, as any JSON-RPC error of a handler).
      expect(status, what).toBe(200);
      expect(answer.error, what).toMatchObject(INVALID_STATE);
      expect(answer.id, what).toBe(1);
    }
    expect(await profileOf(org)).toMatchObject({ updatedAt: null });
    expect(await profileOf(other)).toMatchObject({ updatedAt: null });

    // The controls: the same binding, unexpired, is accepted (so the expired one was refused for its
    // age), and the state as given is accepted by its own key and arguments: the answers are saved.
    const control = await retry(org.key, await minted(600));
    expect(control.body.result).toMatchObject({ resultType: 'complete' });
    expect(control.body.result!.isError).toBeFalsy();
    expect(await profileOf(org)).toMatchObject({ complete: true });
    const again = await retry(org.key, state);
    expect(again.body.result).toMatchObject({ resultType: 'complete' });
    expect(again.body.result!.isError).toBeFalsy();
  });

  it('asks before a task is created: a client that declares tasks gets the task handle once it has answered', async () => {
    const org = await createOrganization({ profile: 'none' });
    const capabilities = { ...FORMS, extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const first = await modernToolCall(org.key, 'audit', {}, { capabilities });
    expect(first.body.result).toMatchObject({ resultType: 'input_required' });
    const answered = await modernToolCall(org.key, 'audit', {}, { capabilities, requestState: first.body.result!.requestState as string, inputResponses: ACCEPTED });
    expect(answered.body.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await profileOf(org)).toMatchObject({ complete: true });
  });

  it('ignores answers sent without a state: the question is asked again, nothing is saved', async () => {
    const org = await createOrganization({ profile: 'none' });
    const { body } = await modernToolCall(org.key, 'research', ARGS, { capabilities: FORMS, inputResponses: ACCEPTED });
    expect(body.result).toMatchObject({ resultType: 'input_required' });
    expect(await profileOf(org)).toMatchObject({ updatedAt: null });

    // A confirmation too: watch-create asks again rather than take a "yes" nobody was asked.
    await importLines(org, [{ type: 'company', key: 'globex.com', properties: { name: 'Globex' } }]);
    const watch = await modernToolCall(org.key, 'watch-create', { target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 9000 }, {
      capabilities: FORMS,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    });
    expect(watch.body.result).toMatchObject({ resultType: 'input_required' });
    expect((await (await call('/api/v1/oms/watches', { key: org.key })).json<{ watches: unknown[] }>()).watches).toEqual([]);
  });
});
