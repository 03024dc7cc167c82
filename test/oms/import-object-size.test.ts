import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createOrganization } from '../helpers/fixtures.ts';
import { importBody, ndjson, rowsOf } from './import-helpers.ts';

/** `count` extra properties named `${prefix}0...` of 10,000 characters each: about 10 KB apiece. */
function extras(prefix: string, count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, 'x'.repeat(10_000)]));
}

describe('an object that imports make grow', () => {
  it('fails the line that would take the stored object past 1.5 MiB, writing nothing of it', async () => {
    const org = await createOrganization();
    const first = await (await importBody(org.key, ndjson({ type: 'company', key: 'acme.com', properties: extras('a', 100) }))).json();
    expect(first).toMatchObject({ imported: 1, failed: 0 });
    const before = await rowsOf(org.id);

    const response = await importBody(
      org.key,
      ndjson({ type: 'company', key: 'acme.com', properties: extras('b', 60) }, { type: 'company', key: 'globex.com', properties: { name: 'Globex' } }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      imported: 1,
      updated: 0,
      failed: 1,
      errors: [
        {
          line: 1,
          error: 'invalid_input',
          message:
            'with the properties already stored, company acme.com would hold more than 1,572,864 bytes (1.5 MiB), the most one object may hold; nothing of this line was written',
        },
      ],
    });
    const row = await env.DB.prepare("SELECT properties, version FROM objects WHERE organization_id = ? AND key = 'acme.com'")
      .bind(org.id)
      .first<{ properties: string; version: number }>();
    expect(row!.version).toBe(1);
    expect(Object.keys(JSON.parse(row!.properties))).toHaveLength(100);
    expect(await rowsOf(org.id)).toEqual({ ...before, objects: before.objects + 1, history: before.history + 1, provenance: before.provenance + 1 });
  });
});
