import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createOrganization } from '../helpers/fixtures.ts';
import { fixturePage } from '../helpers/fixture-pages.ts';
import { importMarket } from '../helpers/market.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { COMPANY_DOMAINS } from '../sites/fixture-sites.ts';

/**
 * Every tool declares an outputSchema and answers structuredContent that the schema accepts:
 * checked by the official SDK client (which validates a tool's structured content against the
 * schema it listed) and again here with Ajv, for a call of each tool with arguments that succeed.
 */
const WATCH = { target: { type: 'company', key: 'acme.com' }, frequency: '1d', tier: 'lite', costCapMicros: 9000 };

/** What earlier calls answered: the watch watch-create made, the run gtm-audit started. */
interface Made {
  watch: string;
  run: string;
}

/** Arguments that succeed, in call order. read-site reads COMPANY_DOMAINS[6] (never its log). */
const CALLS: Record<string, (made: Made) => Record<string, unknown>> = {
  'get-profile': () => ({}),
  'set-profile': () => ({
    companyName: 'Acme Analytics',
    domain: 'acme.com',
    offering: 'Product analytics for B2B SaaS teams',
    icp: { industries: ['SaaS'], companySizes: ['51-200'], regions: ['North America'], personas: ['VP Product'] },
    competitors: ['globex.com'],
  }),
  'import-objects': () => ({ ndjson: '{"type":"company","key":"initech.example","properties":{"name":"Initech"}}' }),
  'add-sources': () => ({ urls: [fixturePage('/zephyr-pricing')] }),
  'site-read-settings': () => ({}),
  'set-site-read-settings': () => ({ pagesPerRead: 20 }),
  'oms-metadata': () => ({}),
  'oms-search': () => ({ type: 'company', query: 'analytics' }),
  'oms-pivot': () => ({ type: 'company', key: 'acme.com', link: 'competitors' }),
  'oms-get': () => ({ type: 'company', key: 'acme.com' }),
  'oms-provenance': () => ({ type: 'company', key: 'acme.com' }),
  'action-request': () => ({ action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics Inc.' } }, reason: 'Renamed' }),
  'watch-create': () => WATCH,
  'watch-get': ({ watch }) => ({ id: watch }),
  'watch-list': () => ({}),
  'action-list': () => ({}),
  'watch-executions': ({ watch }) => ({ id: watch }),
  'watch-run': ({ watch }) => ({ id: watch }),
  'watch-cancel': ({ watch }) => ({ id: watch }),
  changes: () => ({ kind: 'pricing' }),
  research: () => ({ topic: 'Acme Analytics pricing' }),
  competitors: () => ({ company: 'acme.com' }),
  help: () => ({}),
  'gtm-audit': () => ({ company: 'acme.com', focus: ['pricing'] }),
  audit: () => ({}),
  'read-site': () => ({ domain: COMPANY_DOMAINS[6], pages: 1 }),
  'run-status': ({ run }) => ({ kind: 'gtm-audit', id: run }),
};

describe('every tool', () => {
  it('declares an outputSchema and answers structured content it accepts', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const client = await connectMcpClient(org.key);
    try {
      const { tools } = await client.listTools();
      expect(tools.filter((tool) => tool.outputSchema === undefined).map((tool) => tool.name)).toEqual([]);
      // Every tool is called here, so a tool added without a call fails until it gets one.
      expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(CALLS).sort());
      const ajv = new Ajv2020({ strict: false });
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const made: Made = { watch: '', run: '' };
      for (const [name, args] of Object.entries(CALLS)) {
        const tool = byName.get(name)!;
        const result = await client.callTool({ name, arguments: args(made) });
        if (name === 'watch-create') made.watch = (result.structuredContent as { id: string }).id;
        if (name === 'gtm-audit') made.run = (result.structuredContent as { runId: string }).runId;
        expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
        expect(result.structuredContent, name).toBeDefined();
        const validate = ajv.compile(tool.outputSchema!);
        expect(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    } finally {
      await client.close();
    }
  });

  it('answers a tool error the client accepts too: the error body is one of the schema\'s shapes', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'oms-get')!;
      // After tools/list the SDK client checks every result's structured content, errors included.
      const result = await client.callTool({ name: 'oms-get', arguments: { type: 'company', key: 'nowhere.example' } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: 'not_found' });
      expect(new Ajv2020({ strict: false }).validate(tool.outputSchema!, result.structuredContent)).toBe(true);
    } finally {
      await client.close();
    }
  });
});
