import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createKey, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { connectMcpClient, mcpRpc } from '../helpers/mcp-client.ts';

type Client = Awaited<ReturnType<typeof connectMcpClient>>;

/** An SDK client that records the log messages it receives. */
async function listeningClient(key: string): Promise<{ client: Client; messages: LoggingMessageNotification['params'][] }> {
  const client = await connectMcpClient(key);
  const messages: LoggingMessageNotification['params'][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void messages.push(notification.params));
  return { client, messages };
}

async function startRun(client: Client): Promise<string> {
  const started = await client.callTool({ name: 'gtm-audit', arguments: { focus: ['pricing'] } });
  return (started.structuredContent as { runId: string }).runId;
}

async function poll(client: Client, id: string): Promise<string> {
  const result = await client.callTool({ name: 'run-status', arguments: { kind: 'gtm-audit', id } });
  return (result.structuredContent as { status: string }).status;
}

async function pollUntilDone(client: Client, id: string): Promise<void> {
  for (let i = 0; i < 200 && (await poll(client, id)) === 'running'; i++) await new Promise((r) => setTimeout(r, 20));
}

describe('MCP logging: run progress as log messages at the level the key chose', () => {
  it('declares logging and answers logging/setLevel (no longer -32601)', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    // The empty result stays exactly {}, without the request's D1 bookmark (src/mcp/recon-server.ts).
    await expect(client.setLoggingLevel('info')).resolves.toEqual({});
    await client.close();
  });

  it('refuses a level MCP does not have with invalid params', async () => {
    const org = await createOrganization();
    const response = await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'verbose' } }, { key: org.key });
    expect(await response.json()).toMatchObject({
      id: 1,
      error: { code: -32602, message: 'MCP error -32602: Unknown log level "verbose"; use one of debug, info, notice, warning, error, critical, alert, emergency.' },
    });
  });

  it('sends nothing until a level is chosen: a poll stays one JSON answer', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const { client, messages } = await listeningClient(org.key);
    const id = await startRun(client);
    await pollUntilDone(client, id);
    expect(messages).toEqual([]);
    const raw = await mcpRpc(
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'run-status', arguments: { kind: 'gtm-audit', id } } },
      { key: org.key },
    );
    expect(raw.headers.get('Content-Type')).toMatch(/^application\/json/);
    await client.close();
  });

  it('reports each run-status poll once a level is chosen, and keeps the level for later requests of the key', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const setter = await connectMcpClient(org.key);
    await setter.setLoggingLevel('info');
    await setter.close();

    // A new connection (and every request is a fresh server anyway): the key's level holds.
    const { client, messages } = await listeningClient(org.key);
    const id = await startRun(client);
    const status = await poll(client, id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      level: status === 'running' ? 'info' : 'notice',
      logger: 'recon.runs',
      data: { runId: id, kind: 'gtm-audit', status },
    });
    expect((messages[0]!.data as { message: string }).message).toMatch(status === 'running' ? /^Running gtm-audit/ : /is completed/);
    await pollUntilDone(client, id);
    expect(messages.at(-1)).toMatchObject({ level: 'notice', data: { runId: id, status: 'completed', message: `The gtm-audit run ${id} is completed.` } });
    await client.close();
  });

  it('filters by the chosen level: a finished run (notice) is not sent at error, and is at notice', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const { client, messages } = await listeningClient(org.key);
    const id = await startRun(client);
    await pollUntilDone(client, id);

    await client.setLoggingLevel('error');
    expect(await poll(client, id)).toBe('completed');
    expect(messages).toEqual([]);

    await client.setLoggingLevel('notice');
    await poll(client, id);
    expect(messages).toEqual([expect.objectContaining({ level: 'notice', data: expect.objectContaining({ runId: id }) })]);

    // The level is the key's: another key of the same organization chose none.
    const other = await createKey(org.id);
    const { client: otherClient, messages: otherMessages } = await listeningClient(other.key);
    await poll(otherClient, id);
    expect(otherMessages).toEqual([]);
    await client.close();
    await otherClient.close();
  });

  it('reports tasks/get polls the same way', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const { client, messages } = await listeningClient(org.key);
    await client.setLoggingLevel('debug');
    const id = await startRun(client);
    await pollUntilDone(client, id);
    messages.length = 0;
    const task = await client.experimental.tasks.getTask(id);
    expect(task.status).toBe('completed');
    expect(messages).toEqual([expect.objectContaining({ level: 'notice', logger: 'recon.runs', data: expect.objectContaining({ runId: id }) })]);
    await client.close();
  });
});
