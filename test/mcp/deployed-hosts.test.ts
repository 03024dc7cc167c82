import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { executionContext } from '../helpers/recording-sessions.ts';

/**
 * Which hosts /api/mcp answers on, by how the Worker runs: deployed (DEPLOYED_HOSTS, which only
 * `npm run deploy` writes) on the hosts it is served on, narrowed by MCP_ALLOWED_HOSTS; otherwise
 * on MCP_ALLOWED_HOSTS, by default the loopback names. The Worker's own fetch handler, given the
 * env a deployment or `wrangler dev` would have.
 */

// What the deploy writes for wrangler.toml's name with workers.dev on, plus a custom domain.
const SERVED = 'recon.*.workers.dev,recon.example.com';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** The pool's env with `vars` set and `unset` removed (the pool sets MCP_ALLOWED_HOSTS for recon.test). */
function envWithVars(vars: Record<string, string>, unset: readonly string[] = []): Env {
  const copy: Record<string, unknown> = { ...env, ...vars };
  for (const name of unset) delete copy[name];
  return copy as unknown as Env;
}

const deployed = (vars: Record<string, string> = {}) => envWithVars({ DEPLOYED_HOSTS: SERVED, ...vars }, vars.MCP_ALLOWED_HOSTS ? [] : ['MCP_ALLOWED_HOSTS']);
const local = () => envWithVars({}, ['MCP_ALLOWED_HOSTS', 'DEPLOYED_HOSTS']);

async function post(origin: string, workerEnv: Env, key: string, headers: Record<string, string> = {}): Promise<Response> {
  const { ctx, settled } = executionContext();
  const request = new Request(`${origin}/api/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify(INITIALIZE),
  });
  const response = await worker.fetch(request, workerEnv, ctx);
  await settled();
  return response;
}

async function refusal(response: Response): Promise<string> {
  expect(response.status).toBe(403);
  const body = await response.json<{ error: { data: { error: string; message: string } } }>();
  expect(body.error.data.error).toBe('access_denied');
  return body.error.data.message;
}

describe('a deployed Worker (DEPLOYED_HOSTS set by npm run deploy)', () => {
  it('answers on its workers.dev host and its custom domain with no MCP_ALLOWED_HOSTS', async () => {
    const org = await createOrganization();
    const workerEnv = deployed();
    expect(workerEnv.MCP_ALLOWED_HOSTS).toBeUndefined();
    for (const origin of ['https://recon.acme-team.workers.dev', 'https://recon.example.com', 'https://RECON.Example.com:443']) {
      expect((await post(origin, workerEnv, org.key)).status, origin).toBe(200);
    }
  });

  it('refuses a host it is not served on, the loopback names included, naming what it answers on', async () => {
    const org = await createOrganization();
    const workerEnv = deployed();
    for (const origin of ['https://evil.example', 'http://localhost:8787', 'https://other.acme-team.workers.dev', 'https://recon.a.b.workers.dev', 'https://recon.example.com.evil.example']) {
      const message = await refusal(await post(origin, workerEnv, org.key));
      expect(message, origin).toContain('the hosts this deployment is served on, narrowed by MCP_ALLOWED_HOSTS');
    }
  });

  it('is narrowed by MCP_ALLOWED_HOSTS, which cannot widen it', async () => {
    const org = await createOrganization();
    const workerEnv = deployed({ MCP_ALLOWED_HOSTS: 'recon.example.com,localhost,evil.example' });
    expect((await post('https://recon.example.com', workerEnv, org.key)).status).toBe(200);
    for (const origin of ['https://recon.acme-team.workers.dev', 'http://localhost:8787', 'https://evil.example']) {
      await refusal(await post(origin, workerEnv, org.key));
    }
  });

  it("is not narrowed to nothing by wrangler.toml's local development hosts", async () => {
    const org = await createOrganization();
    const workerEnv = deployed({ MCP_ALLOWED_HOSTS: 'localhost,127.0.0.1,[::1]' });
    expect((await post('https://recon.acme-team.workers.dev', workerEnv, org.key)).status).toBe(200);
    await refusal(await post('http://localhost:8787', workerEnv, org.key));
  });

  it('keeps the Origin check: a browser page elsewhere is refused on a served host', async () => {
    const org = await createOrganization();
    const message = await refusal(await post('https://recon.example.com', deployed(), org.key, { Origin: 'https://evil.example' }));
    expect(message).toContain('MCP_ALLOWED_ORIGINS');
  });

  it('serves OAuth discovery on its served hosts, with that host as the issuer', async () => {
    const { ctx } = executionContext();
    const url = 'https://recon.acme-team.workers.dev/.well-known/oauth-protected-resource/api/mcp';
    const response = await worker.fetch(new Request(url), deployed(), ctx);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ resource: 'https://recon.acme-team.workers.dev/api/mcp' });
  });
});

describe('local development (no DEPLOYED_HOSTS)', () => {
  it('answers on the loopback names by default and still refuses a DNS-rebinding request', async () => {
    const org = await createOrganization();
    const workerEnv = local();
    expect((await post('http://localhost:8787', workerEnv, org.key)).status).toBe(200);
    // A page at evil.example whose name now resolves to 127.0.0.1: Host and Origin are its own.
    const message = await refusal(await post('http://evil.example:8787', workerEnv, org.key, { Origin: 'http://evil.example:8787' }));
    expect(message).toContain('an operator can add it to MCP_ALLOWED_HOSTS');
    // workers.dev names mean nothing locally.
    await refusal(await post('https://recon.acme-team.workers.dev', workerEnv, org.key));
  });
});
