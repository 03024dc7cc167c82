import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readWebhookSecret } from '../../src/db/webhook-secrets.ts';
import type { CreatedWatch, WatchView } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { GLOBEX_WATCH, json, marketOrganization, untilExecutions } from './helpers.ts';
import { newSecret, settled } from './webhook-helpers.ts';

// A local URL (allowed in the test pool, as under `npm run dev`) where nothing listens: deliveries fail at once, nothing leaves the machine.
const LOCAL_HOOK = 'http://127.0.0.1:9/recon';

async function watchRows(organizationId: string): Promise<number> {
  return (await env.DB.prepare('SELECT count(*) AS n FROM watches WHERE organization_id = ?').bind(organizationId).first<{ n: number }>())!.n;
}

describe('creating a watch with a webhook', () => {
  it('refuses a URL outside the policy, or an unknown field, as invalid_input on webhook.*, and writes nothing', async () => {
    const org = await marketOrganization();
    const cases: [unknown, string, RegExp][] = [
      [{ url: 'http://hooks.example.com/recon' }, 'webhook.url', /must use https, not http/],
      [{ url: 'https://10.0.0.7/recon' }, 'webhook.url', /public/],
      [{ url: 'not a url' }, 'webhook.url', /absolute URL/],
      [{ url: `https://hooks.example.com/${'a'.repeat(2048)}` }, 'webhook.url', /at most 2048/],
      [{ url: 'https://hooks.example.com/recon', secret: 'mine' }, 'webhook.secret', /unknown field 'webhook.secret'/],
      [{}, 'webhook.url', /required/],
      ['https://hooks.example.com/recon', 'webhook', /object/],
    ];
    for (const [webhook, path, message] of cases) {
      const response = await call('/api/v1/oms/watches', { key: org.key, body: { ...GLOBEX_WATCH, webhook } });
      const body = await json<{ error: string; message: string; details: { path: string; message: string }[] }>(response, 400);
      expect(body.error).toBe('invalid_input');
      expect(body.details.map((d) => d.path)).toContain(path);
      expect(body.details.find((d) => d.path === path)!.message).toMatch(message);
    }
    expect(await watchRows(org.id)).toBe(0);
    expect(await readWebhookSecret(env.DB, org.id)).toBeNull();
  });

  it("answers the organization's new secret once, with the first watch that has a webhook; the watch shows its URL, never the secret", async () => {
    const org = await marketOrganization();
    const plain = await json<CreatedWatch>(await call('/api/v1/oms/watches', { key: org.key, body: GLOBEX_WATCH }), 201);
    expect(plain.webhook).toBeNull();
    expect(plain).not.toHaveProperty('webhookSecret');
    expect(await readWebhookSecret(env.DB, org.id)).toBeNull();

    const first = await json<CreatedWatch>(await call('/api/v1/oms/watches', { key: org.key, body: { ...GLOBEX_WATCH, webhook: { url: LOCAL_HOOK } } }), 201);
    expect(first.webhook).toEqual({ url: LOCAL_HOOK, kinds: [] });
    expect(first.webhookSecret).toMatch(/^whsec_/);
    expect((await readWebhookSecret(env.DB, org.id))!.secret).toBe(first.webhookSecret);

    const second = await json<CreatedWatch>(await call('/api/v1/oms/watches', { key: org.key, body: { ...GLOBEX_WATCH, webhook: { url: LOCAL_HOOK } } }), 201);
    expect(second.webhook).toEqual({ url: LOCAL_HOOK, kinds: [] });
    expect(second).not.toHaveProperty('webhookSecret');

    const got = await json<WatchView>(await call(`/api/v1/oms/watches?id=${first.id}`, { key: org.key }), 200);
    const { webhookSecret: _, ...watch } = first;
    expect(got).toMatchObject({ ...watch, updatedAt: got.updatedAt, spentMicros: got.spentMicros, executions: got.executions, lastRunAt: got.lastRunAt, nextRunAt: got.nextRunAt, status: got.status });
    const listed = await json<{ watches: WatchView[] }>(await call('/api/v1/oms/watches', { key: org.key }), 200);
    expect(listed.watches.map((w) => [w.id, w.webhook])).toEqual([
      [second.id, { url: LOCAL_HOOK, kinds: [] }],
      [first.id, { url: LOCAL_HOOK, kinds: [] }],
      [plain.id, null],
    ]);
    const everything = JSON.stringify([got, listed]);
    expect(everything).not.toContain(first.webhookSecret);

    // The receiver is down: the executions stand, their deliveries wait for a retry.
    for (const id of [first.id, second.id]) {
      const [execution] = await untilExecutions(id, 1);
      expect(execution).toMatchObject({ outcome: 'succeeded', costMicros: 3000 });
      await settled(id);
    }
  });

  it('an organization that already has a secret gets none in the answer; watch-create over MCP says so, and shows a new one once', async () => {
    const org = await marketOrganization();
    const client = await connectMcpClient(org.key);
    const made = await client.callTool({ name: 'watch-create', arguments: { ...GLOBEX_WATCH, webhook: { url: LOCAL_HOOK } } });
    expect(made.isError).toBeFalsy();
    const secret = (made.structuredContent as unknown as CreatedWatch).webhookSecret!;
    expect(secret).toMatch(/^whsec_/);
    expect((made.content as { text: string }[])[0]!.text).toContain(`Webhook signing secret (shown once, store it now): ${secret}`);

    const again = await client.callTool({ name: 'watch-create', arguments: { ...GLOBEX_WATCH, webhook: { url: LOCAL_HOOK } } });
    expect(again.structuredContent).not.toHaveProperty('webhookSecret');
    expect((again.content as { text: string }[])[0]!.text).toContain("signed with your organization's existing webhook secret");
    expect((again.content as { text: string }[])[0]!.text).not.toContain(secret);

    const other = await marketOrganization();
    await newSecret(other);
    const rest = await json<CreatedWatch>(await call('/api/v1/oms/watches', { key: other.key, body: { ...GLOBEX_WATCH, webhook: { url: LOCAL_HOOK } } }), 201);
    expect(rest).not.toHaveProperty('webhookSecret');
    const refused = await client.callTool({ name: 'watch-create', arguments: { ...GLOBEX_WATCH, webhook: { url: 'http://hooks.example.com/x' } } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toContain('webhook.url must use https');
    for (const id of [(made.structuredContent as unknown as WatchView).id, (again.structuredContent as unknown as WatchView).id, rest.id]) {
      await untilExecutions(id, 1);
      await settled(id);
    }
  });
});
