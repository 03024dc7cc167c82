import { describe, expect, it } from 'vitest';
import { call } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { createAndSettle, marketOrganization } from '../watches/helpers.ts';

/**
 * watch-list and action-list are the operations behind GET /api/v1/oms/watches and /oms/actions:
 * with `id` alone they answer that one item, as REST does, and `id` with a filter or a page size is
 * refused by both doors alike (one item or a filtered page, never a filter silently ignored).
 */
describe('a list tool given an id', () => {
  it('watch-list answers the one watch REST answers, and refuses id with another argument', async () => {
    const org = await marketOrganization();
    const watch = await createAndSettle(org.key);
    const client = await connectMcpClient(org.key);

    const one = await client.callTool({ name: 'watch-list', arguments: { id: watch.id } });
    expect(one.isError).toBeFalsy();
    expect(one.structuredContent).toEqual(await (await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key })).json());

    const mixed = await client.callTool({ name: 'watch-list', arguments: { id: watch.id, status: 'active' } });
    expect(mixed.isError).toBe(true);
    expect(mixed.structuredContent).toMatchObject({
      error: 'invalid_input',
      message: 'Invalid arguments of watch-list: id names one watch; send it without status.',
      details: [{ path: 'status', message: 'status cannot be combined with id' }],
    });
    const rest = await call(`/api/v1/oms/watches?id=${watch.id}&status=active`, { key: org.key });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ message: 'Invalid query: id names one watch; send it without status.' });
    await client.close();
  });

  it('action-list refuses id with a page size, as GET /api/v1/oms/actions does', async () => {
    const org = await marketOrganization();
    const client = await connectMcpClient(org.key);
    const mixed = await client.callTool({ name: 'action-list', arguments: { id: 'apr_unknown', limit: 5 } });
    expect(mixed.structuredContent).toMatchObject({
      error: 'invalid_input',
      message: 'Invalid arguments of action-list: id names one request; send it without limit.',
    });
    await client.close();
  });
});
