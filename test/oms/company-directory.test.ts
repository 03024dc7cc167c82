import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { companyDirectory, DIRECTORY_TTL_MS } from '../../src/oms/company-directory.ts';
import { deleteObject, writeObjects } from '../../src/oms/store.ts';
import { createOrganization } from '../helpers/fixtures.ts';

// Research reads an organization's companies from a directory kept in the isolate for
// DIRECTORY_TTL_MS: a company written or deleted through this isolate is seen at once, one
// written elsewhere (here: straight to D1, as another isolate's write would land) once the TTL
// has passed.

const SOURCE = { kind: 'import', id: 'test' } as const;

function company(key: string, name: string) {
  return { type: 'company' as const, key, properties: { name } };
}

describe('the company directory', () => {
  it('sees a company written or deleted through this isolate at once', async () => {
    const org = await createOrganization();
    await writeObjects(env.DB, org.id, [company('acme.com', 'Acme Analytics')], [], SOURCE);
    expect(await companyDirectory(env.DB, org.id)).toEqual([{ key: 'acme.com', name: 'Acme Analytics' }]);
    await writeObjects(env.DB, org.id, [company('globex.com', 'Globex')], [], SOURCE);
    expect((await companyDirectory(env.DB, org.id)).map((c) => c.key).sort()).toEqual(['acme.com', 'globex.com']);
    await deleteObject(env.DB, org.id, { type: 'company', key: 'acme.com' }, SOURCE);
    expect(await companyDirectory(env.DB, org.id)).toEqual([{ key: 'globex.com', name: 'Globex' }]);
  });

  it('sees a company written elsewhere once DIRECTORY_TTL_MS has passed, and is per organization', async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    await writeObjects(env.DB, org.id, [company('acme.com', 'Acme Analytics')], [], SOURCE);
    const readAt = Date.now();
    expect(await companyDirectory(env.DB, org.id, readAt)).toHaveLength(1);
    await env.DB.prepare(
      `INSERT INTO objects (organization_id, type, key, properties, version, created_at, updated_at)
       VALUES (?1, 'company', 'initech.io', '{"name":"Initech"}', 1, ?2, ?2)`,
    )
      .bind(org.id, new Date().toISOString())
      .run();
    expect(await companyDirectory(env.DB, org.id, readAt + DIRECTORY_TTL_MS - 1)).toHaveLength(1);
    expect((await companyDirectory(env.DB, org.id, readAt + DIRECTORY_TTL_MS)).map((c) => c.key).sort()).toEqual(['acme.com', 'initech.io']);
    expect(await companyDirectory(env.DB, other.id, readAt)).toEqual([]);
  });
});
