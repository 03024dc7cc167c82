import { describe, expect, it } from 'vitest';
import { mcpRpc } from '../helpers/mcp-client.ts';
import { startEarlyInWindow } from '../helpers/rate-window.ts';
import { connect, onboardedPerson, REDIRECT_URI, workerFetch } from './helpers.ts';

const toolsCall = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

function freshAddress(): string {
  const [a, b] = crypto.getRandomValues(new Uint8Array(2));
  return `203.0.${a}.${b}`;
}

function madeUpToken(i: number): string {
  return `usr_nobody:${String(i).padStart(16, 'A')}:${'B'.repeat(32)}`;
}

describe('limits on OAuth, the same as on keys', () => {
  it("spends the grant's own command budget: the 61st command call in a minute is 429, another grant goes on", { timeout: 30_000 }, async () => {
    const person = await onboardedPerson();
    const first = await connect(person);
    const second = await onboardedPerson().then((other) => connect(other));
    await startEarlyInWindow(8_000);
    for (let i = 0; i < 60; i++) expect((await mcpRpc(toolsCall(i, 'help'), { key: first.access_token })).status).toBe(200);
    const refused = await mcpRpc(toolsCall(61, 'help'), { key: first.access_token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(await refused.json()).toMatchObject({ id: 61, error: { data: { error: 'rate_limited', bucket: 'commands' } } });
    expect((await mcpRpc(toolsCall(62, 'help'), { key: second.access_token })).status).toBe(200);
  });

  it('counts made-up tokens as failed authentications of the address: past 30 a minute, 429 before any lookup; a valid token from there goes on', { timeout: 30_000 }, async () => {
    const person = await onboardedPerson();
    const tokens = await connect(person);
    const address = freshAddress();
    const list = (token: string) => mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: token, headers: { 'CF-Connecting-IP': address } });
    // Used once from this address, the token was valid lately: the throttle lets it through later.
    expect((await list(tokens.access_token)).status).toBe(200);
    await startEarlyInWindow(5_000);
    let response: Response | undefined;
    for (let i = 0; i < 40; i++) {
      response = await list(madeUpToken(i));
      if (response.status === 429) break;
      expect(response.status).toBe(401);
    }
    expect(response!.status).toBe(429);
    expect(await response!.json()).toMatchObject({ error: { data: { error: 'rate_limited', bucket: 'failed-auth' } } });
    expect((await list(madeUpToken(999))).status).toBe(429);
    expect((await list(tokens.access_token)).status).toBe(200);
  });

  it('bounds dynamic client registrations per address: the 11th in a minute is 429', { timeout: 30_000 }, async () => {
    const address = freshAddress();
    await startEarlyInWindow(5_000);
    const register = () =>
      workerFetch('/oauth/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_name: 'spam', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
        address,
      });
    for (let i = 0; i < 10; i++) expect((await register()).status).toBe(201);
    const refused = await register();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(await refused.json()).toMatchObject({ error: 'rate_limited' });
  });

  it('bounds token and registration bodies at 64 KiB', async () => {
    const response = await workerFetch('/oauth/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'x'.repeat(70 * 1024), redirect_uris: [REDIRECT_URI] }),
      address: freshAddress(),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
  });
});
