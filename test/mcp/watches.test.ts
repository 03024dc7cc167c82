import { describe, expect, it } from 'vitest';
import type { ExecutionRecord, WatchView } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { GLOBEX_WATCH, marketOrganization, stubOf, untilExecutions } from '../watches/helpers.ts';
import { NO_WEB_CHANGE } from '../watches/helpers.ts';

const text = (result: Record<string, unknown>) => (result.content as { type: string; text: string }[])[0]!.text;

describe('the watch-* tools', () => {
  it('answer what REST answers, over the same core', async () => {
    const org = await marketOrganization();
    const client = await connectMcpClient(org.key);

    const created = await client.callTool({ name: 'watch-create', arguments: GLOBEX_WATCH });
    expect(created.isError).toBeFalsy();
    const watch = created.structuredContent as unknown as WatchView;
    expect(watch).toMatchObject({ target: { type: 'company', key: 'globex.com' }, tier: 'lite', costCapMicros: 9000, status: 'active' });
    expect(text(created)).toContain(`Watch ${watch.id} created; its first execution runs now.`);
    const [first] = await untilExecutions(watch.id, 1);

    const got = await client.callTool({ name: 'watch-get', arguments: { id: watch.id } });
    expect(got.structuredContent).toEqual(await (await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key })).json());
    expect(text(got)).toContain(`spent 3,000 micros ($0.0030) of 9,000 micros ($0.0090) over 1 execution(s)`);

    const listed = await client.callTool({ name: 'watch-list', arguments: { status: 'active' } });
    expect(listed.structuredContent).toEqual(await (await call('/api/v1/oms/watches?status=active', { key: org.key })).json());

    const run = await client.callTool({ name: 'watch-run', arguments: { id: watch.id } });
    const execution = run.structuredContent as unknown as ExecutionRecord;
    expect(execution).toMatchObject({ watchId: watch.id, outcome: 'succeeded', costMicros: 3000 });
    expect(text(run)).toContain(`succeeded, charged 3,000 micros ($0.0030); brief ${execution.briefKey}`);
    expect(execution.findings).toEqual({ since: first!.id, ...NO_WEB_CHANGE, added: [], removed: [] });
    expect(text(run)).toContain(`no change on the company's web since ${first!.id}; cited claims unchanged`);

    const executions = await client.callTool({ name: 'watch-executions', arguments: { id: watch.id } });
    expect(executions.structuredContent).toEqual(await (await call(`/api/v1/oms/watches/executions?id=${watch.id}`, { key: org.key })).json());
    expect((executions.structuredContent as { executions: ExecutionRecord[] }).executions[0]).toEqual(execution);

    const cancelled = await client.callTool({ name: 'watch-cancel', arguments: { id: watch.id } });
    expect(cancelled.structuredContent).toMatchObject({ status: 'cancelled' });
    expect(cancelled.structuredContent).toEqual(await stubOf(watch.id).get());

    // The same refusals: 409 as a conflict tool error, and validation with the same details.
    const refused = await client.callTool({ name: 'watch-run', arguments: { id: watch.id } });
    const rest = await call(`/api/v1/oms/watches/run?id=${watch.id}`, { key: org.key, method: 'POST' });
    expect(rest.status).toBe(409);
    const { requestId: _a, ...restBody } = (await rest.json()) as Record<string, unknown>;
    const { requestId: _b, ...toolBody } = refused.structuredContent as Record<string, unknown>;
    expect(refused.isError).toBe(true);
    expect(toolBody).toEqual(restBody);

    const invalid = { ...GLOBEX_WATCH, frequency: '5w', tier: 'deep' };
    const bad = await client.callTool({ name: 'watch-create', arguments: invalid });
    const restBad = await call('/api/v1/oms/watches', { key: org.key, body: invalid });
    expect(restBad.status).toBe(400);
    const { requestId: _c, ...restBadBody } = (await restBad.json()) as Record<string, unknown>;
    const { requestId: _d, ...toolBadBody } = bad.structuredContent as Record<string, unknown>;
    expect(toolBadBody).toEqual(restBadBody);
    expect(toolBadBody).toMatchObject({ error: 'invalid_input' });
    await client.close();
  });
});
