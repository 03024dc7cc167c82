import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createOrganization } from '../../helpers/fixtures.ts';
import { changedTables, snapshot } from '../support/snapshot.ts';

/** The suite's "a refused request writes nothing" rests on this check: it must see any write, and only writes. */
describe('D1 snapshot', () => {
  it('sees a row added, a value changed and a row removed, in any table', async () => {
    const org = await createOrganization();
    const before = await snapshot();
    expect(changedTables(before, await snapshot())).toEqual([]);

    await env.DB.prepare(`UPDATE organizations SET name = 'Renamed' WHERE id = ?`).bind(org.id).run();
    const renamed = await snapshot();
    expect(changedTables(before, renamed)).toEqual(['organizations: ' + before.organizations!.rows + ' -> ' + before.organizations!.rows + ' rows']);

    await env.DB.prepare(`DELETE FROM sales_profiles WHERE organization_id = ?`).bind(org.id).run();
    expect(changedTables(renamed, await snapshot())).toEqual([`sales_profiles: ${renamed.sales_profiles!.rows} -> ${renamed.sales_profiles!.rows - 1} rows`]);
  });

  it("ignores only a key's last_used_at", async () => {
    const org = await createOrganization();
    const before = await snapshot();
    await env.DB.prepare(`UPDATE api_keys SET last_used_at = ? WHERE id = ?`).bind(new Date().toISOString(), org.keyId).run();
    expect(changedTables(before, await snapshot())).toEqual([]);
    await env.DB.prepare(`UPDATE api_keys SET name = 'renamed' WHERE id = ?`).bind(org.keyId).run();
    expect(changedTables(before, await snapshot())).toHaveLength(1);
  });
});
