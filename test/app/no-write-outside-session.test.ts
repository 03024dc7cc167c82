import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { envWith, executionContext, recordingSessions } from '../helpers/recording-sessions.ts';

/**
 * At run time, what test/layers/d1-sessions.test.ts checks in the source: requests that write
 * through every door (REST, MCP, the dashboard's forms) send no statement to the D1 binding itself,
 * only through the sessions it opens. The app runs against the real binding, wrapped to record any
 * use outside a session.
 */

describe('writes through every door', () => {
  it('all go through a D1 session, none to the binding itself', async () => {
    const org = await createOrganization();
    const { DB, log } = recordingSessions();
    const recorded = envWith(DB);
    const send = async (path: string, init: RequestInit) => {
      const { ctx, settled } = executionContext();
      const response = await app.request(`https://recon.test${path}`, init, recorded, ctx);
      await settled();
      return response;
    };
    const api = { Authorization: `Bearer ${org.key}`, 'Content-Type': 'application/json' };
    const key = `session-only-${crypto.randomUUID().slice(0, 8)}.example`;

    const imported = await send('/api/v1/oms/objects/import', {
      method: 'POST',
      headers: { ...api, 'Content-Type': 'application/x-ndjson' },
      body: JSON.stringify({ type: 'company', key, properties: { name: 'Session Co', domain: key } }),
    });
    expect(imported.status).toBe(200);

    const action = await send('/api/mcp', {
      method: 'POST',
      headers: { ...api, Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'action-request', arguments: { action: 'update_properties', params: { type: 'company', key, properties: { name: 'Renamed Co' } } } },
      }),
    });
    expect(action.status).toBe(200);
    expect(await action.json()).toMatchObject({ result: { structuredContent: { status: 'pending' } } });

    const signedUp = await send('/dashboard/sign-up', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://recon.test', 'Sec-Fetch-Site': 'same-origin', 'CF-Connecting-IP': '10.9.8.7' },
      body: new URLSearchParams({ organizationName: 'Session Labs', name: 'Ada', email: `ada-${crypto.randomUUID()}@example.com`, password: 'correct horse battery staple' }).toString(),
    });
    expect(signedUp.status).toBe(303);

    expect(log.sessions.length).toBeGreaterThanOrEqual(3);
    expect(log.outside).toEqual([]);
    // The record would show a statement sent to the binding itself.
    await DB.prepare('SELECT 1').first();
    expect(log.outside).toEqual(['prepare']);
  });
});
