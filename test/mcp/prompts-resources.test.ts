import { describe, expect, it } from 'vitest';
import { call, createKey, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

/** Prompts for the everyday jobs, and briefs and run reports as resources, through the SDK client. */
type Text = { type: string; text: string }[];

describe('MCP prompts', () => {
  it('lists the everyday jobs and gets each with its arguments set in the message', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(['account-research', 'competitor-brief', 'gtm-audit', 'weekly-watch-digest']);
      const research = await client.getPrompt({ name: 'account-research', arguments: { company: 'globex.com' } });
      const text = (research.messages[0]!.content as { text: string }).text;
      expect(text).toContain('globex.com');
      expect(text).toContain('read-site');
      expect(text).toContain('research');
      const digest = await client.getPrompt({ name: 'weekly-watch-digest' });
      expect((digest.messages[0]!.content as { text: string }).text).toContain('watch-executions');
    } finally {
      await client.close();
    }
  });

  it('refuses an unknown prompt, a missing required argument, an unknown one and an overlong one, naming each', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    try {
      await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown prompt 'nope'") });
      await expect(client.getPrompt({ name: 'account-research' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("needs 'company'") });
      await expect(client.getPrompt({ name: 'gtm-audit', arguments: { topic: 'x' } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("no argument 'topic'") });
      await expect(client.getPrompt({ name: 'account-research', arguments: { company: 'x'.repeat(201) } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('at most 200') });
    } finally {
      await client.close();
    }
  });
});

describe('MCP resources', () => {
  it('lists the newest briefs and runs, reads each by its URI, and links a finished run from run-status', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const research = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics pricing' } });
    const brief = await research.text();
    const client = await connectMcpClient(org.key);
    try {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['recon://briefs/{key}', 'recon://runs/{kind}/{id}']);

      const audit = await client.callTool({ name: 'audit', arguments: {} });
      const { runId } = audit.structuredContent as { runId: string };
      let polled = await client.callTool({ name: 'run-status', arguments: { kind: 'audit', id: runId } });
      for (let i = 0; i < 300 && (polled.structuredContent as { status: string }).status === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        polled = await client.callTool({ name: 'run-status', arguments: { kind: 'audit', id: runId } });
      }
      const link = (polled.content as { type: string; uri?: string }[]).find((part) => part.type === 'resource_link');
      expect(link?.uri).toBe(`recon://runs/audit/${runId}`);

      const { resources } = await client.listResources();
      const briefs = resources.filter((resource) => resource.uri.startsWith('recon://briefs/'));
      expect(briefs).toHaveLength(1);
      expect(briefs[0]!.title).toBe('Brief: Acme Analytics pricing');
      expect(resources.map((resource) => resource.uri)).toContain(`recon://runs/audit/${runId}`);

      const readBrief = await client.readResource({ uri: briefs[0]!.uri });
      expect((readBrief.contents[0] as { text: string }).text).toBe(brief);
      const readRun = await client.readResource({ uri: link!.uri! });
      expect((readRun.contents[0] as { text: string }).text).toBe((polled.content as Text)[0]!.text);
    } finally {
      await client.close();
    }
  });

  it("answers resource not found (-32002) for another organization's brief, an unknown URI and a malformed one", async () => {
    const owner = await createOrganization();
    await importMarket(owner.key);
    await call('/api/v1/commands/research', { key: owner.key, body: { topic: 'Acme Analytics pricing' } });
    const ownerClient = await connectMcpClient(owner.key);
    const [uri] = (await ownerClient.listResources()).resources.map((resource) => resource.uri);
    await ownerClient.close();

    const other = await createOrganization();
    const client = await connectMcpClient(other.key);
    try {
      await expect(client.readResource({ uri: uri! })).rejects.toMatchObject({ code: -32002 });
      await expect(client.readResource({ uri: `recon://runs/audit/${'0'.repeat(64)}` })).rejects.toMatchObject({ code: -32002 });
      await expect(client.readResource({ uri: 'recon://elsewhere/x' })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining('recon://briefs/{key}') });
    } finally {
      await client.close();
    }
  });

  it('lists only what the key may read: no briefs without oms:read, no runs without commands', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics pricing' } });
    const { key } = await createKey(org.id, ['commands']);
    const client = await connectMcpClient(key);
    try {
      const { resources } = await client.listResources();
      expect(resources.filter((resource) => resource.uri.startsWith('recon://briefs/'))).toEqual([]);
      const brief = (await (await call('/api/v1/oms/objects/search', { key: org.key, body: { type: 'brief' } })).json<{ objects: { key: string }[] }>()).objects[0]!;
      await expect(client.readResource({ uri: `recon://briefs/${brief.key}` })).rejects.toMatchObject({ message: expect.stringContaining("'oms:read'") });
    } finally {
      await client.close();
    }
  });
});
