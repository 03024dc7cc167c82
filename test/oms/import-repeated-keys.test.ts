import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { importObjects } from '../../src/oms/import.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { recordingD1 } from '../helpers/recording-d1.ts';
import { contextFor, importBody, ndjson, rowsOf } from './import-helpers.ts';

describe('an import that names one key on many lines', () => {
  it('applies the key once, from its last valid line, in a bounded number of D1 batches', async () => {
    const org = await createOrganization();
    const lines = Array.from({ length: 3_000 }, (_, i) => ({ type: 'company', key: 'acme.com', properties: { name: `Acme ${i + 1}` } }));
    const { db, work } = recordingD1(env.DB);
    const result = await importObjects(contextFor(org, db), ndjson(...lines));

    expect(result).toMatchObject({ imported: 1, updated: 0, unchanged: 0, failed: 0, errors: [], superseded: 2_999 });
    expect(result.supersededLines).toHaveLength(2_999);
    expect(result.supersededLines[0]).toEqual({ line: 1, by: 3_000 });
    expect(result.supersededLines.at(-1)).toEqual({ line: 2_999, by: 3_000 });
    // One batch reads what is stored, one writes: not one per repeat.
    expect(work.batches).toBe(2);

    const row = await env.DB.prepare("SELECT properties, version FROM objects WHERE organization_id = ? AND key = 'acme.com'")
      .bind(org.id)
      .first<{ properties: string; version: number }>();
    expect(JSON.parse(row!.properties)).toEqual({ name: 'Acme 3000' });
    expect(row!.version).toBe(1);
    expect(await rowsOf(org.id)).toMatchObject({ objects: 1, history: 1, provenance: 1 });
  });

  it('lets a later valid line win over an earlier one, and a failed line supersede nothing', async () => {
    const org = await createOrganization();
    const response = await importBody(
      org.key,
      ndjson(
        { type: 'company', key: 'www.acme.com', properties: { name: 'Acme', description: 'Old.' } },
        { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
        { type: 'company', key: 'ACME.com', properties: { name: 'Acme Inc.' } },
        { type: 'company', key: 'acme.com', properties: { name: '' } },
      ),
    );
    expect(response.status).toBe(200);
    const result = await response.json<Record<string, unknown>>();
    expect(result).toMatchObject({ imported: 2, failed: 1, superseded: 1, supersededLines: [{ line: 1, by: 3 }] });
    expect(result.errors).toEqual([{ line: 4, error: 'invalid_input', message: expect.stringContaining('properties.name') }]);
    const row = await env.DB.prepare("SELECT properties FROM objects WHERE organization_id = ? AND key = 'acme.com'").bind(org.id).first<{ properties: string }>();
    // The winning line is applied whole; the superseded one contributes nothing.
    expect(JSON.parse(row!.properties)).toEqual({ name: 'Acme Inc.' });
  });

  it('counts a link named on several lines once', async () => {
    const org = await createOrganization();
    const link = { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'globex.com' } };
    const again = { ...link, from: { type: 'company', key: 'WWW.ACME.COM' } };
    const result = await (await importBody(org.key, ndjson(link, again, link))).json();
    expect(result).toMatchObject({ imported: 1, unchanged: 0, superseded: 2, supersededLines: [{ line: 1, by: 3 }, { line: 2, by: 3 }] });
    expect(await rowsOf(org.id)).toMatchObject({ links: 1 });
  });
});
