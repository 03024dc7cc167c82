/**
 * End to end: a local database made the way `main` made it before migrations existed
 * (`wrangler d1 execute --file schema.sql`, then the demo seed, then data written by use) is
 * upgraded in place by the seed that `npm run dev` runs, with its data kept, and the real Worker
 * serves it. The fixtures are schema.sql exactly as it was at each commit.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { PROJECT_ROOT, queryD1, runWrangler } from '../../scripts/lib/wrangler.ts';
import { ACME_DEMO_KEY, DEMO_SEED_FILE, seedLocalDatabase } from '../../scripts/seed.ts';
import { startDevServer, type DevServer } from './dev-server.ts';

/** Every migration in migrations/, in order: an upgraded database has applied them all. */
const MIGRATIONS = readdirSync(path.join(PROJECT_ROOT, 'migrations')).filter((name) => name.endsWith('.sql')).sort();
const RUN_ID = 'a'.repeat(64);

let server: DevServer | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

const local = (persistTo: string) => ['DB', '--local', '--persist-to', persistTo];
const execute = (persistTo: string, sql: string) => runWrangler(['d1', 'execute', ...local(persistTo), '--command', sql], { quiet: true });
const query = async (persistTo: string, sql: string) => (await queryD1(['d1', 'execute', ...local(persistTo), '--command', sql]))[0]!;

/** Makes the database as `main` at `commit` did: its schema.sql, the demo seed, then an object, a source passage and a run. */
function oldDatabase(commit: string, runArgs: string | null) {
  return async (persistTo: string) => {
    await runWrangler(['d1', 'execute', ...local(persistTo), '--file', path.join(PROJECT_ROOT, 'test/e2e/fixtures', `schema-${commit}.sql`)], { quiet: true });
    await runWrangler(['d1', 'execute', ...local(persistTo), '--file', path.join(PROJECT_ROOT, DEMO_SEED_FILE)], { quiet: true });
    await execute(
      persistTo,
      `INSERT INTO objects (organization_id, type, key, properties, version, created_at, updated_at)
         VALUES ('org_demo_acme', 'company', 'legacy-rival.com', '{"name":"Legacy Rival","domain":"legacy-rival.com"}', 2, '2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z');
       INSERT INTO property_sources (organization_id, type, key, name, source_kind, source_id, updated_at)
         VALUES ('org_demo_acme', 'company', 'legacy-rival.com', 'name', 'import', 'imp_legacy', '2026-11-21T00:00:00.000Z');
       INSERT INTO object_history (organization_id, type, key, at, property, from_value, to_value, source_kind, source_id)
         VALUES ('org_demo_acme', 'company', 'legacy-rival.com', '2026-11-21T00:00:00.000Z', 'name', '"Rival"', '"Legacy Rival"', 'import', 'imp_legacy');
       INSERT INTO passages (organization_id, source_key, domain, title, published_at, ordinal, text)
         VALUES ('org_demo_acme', 'https://legacy-rival.com/pricing', 'legacy-rival.com', 'Legacy Rival pricing', '2026-11-20', 0, 'Legacy Rival charges per zyzzyva seat.');
       INSERT INTO runs (id, organization_id, kind, target, status, steps_done, steps_total, created_at, updated_at, finished_at${runArgs === null ? '' : ', args'})
         VALUES ('${RUN_ID}', 'org_demo_acme', 'gtm-audit', 'legacy-rival.com', 'completed', 4, 4, '2026-11-22T00:00:00.000Z', '2026-11-22T00:01:00.000Z', '2026-11-22T00:01:00.000Z'${runArgs === null ? '' : `, '${runArgs}'`});`,
    );
  };
}

/** What the upgrade must keep and add, read in one wrangler call. */
async function inspect(persistTo: string) {
  const [migrations, object, propertySource, history, passages, argsColumn, added] = await queryD1([
    'd1',
    'execute',
    ...local(persistTo),
    '--command',
    `SELECT name FROM d1_migrations ORDER BY id;
     SELECT properties, version, created_at FROM objects WHERE key = 'legacy-rival.com';
     SELECT source_id FROM property_sources WHERE key = 'legacy-rival.com';
     SELECT to_value FROM object_history WHERE key = 'legacy-rival.com';
     SELECT rowid FROM passages_fts WHERE passages_fts MATCH 'zyzzyva';
     SELECT "notnull", dflt_value FROM pragma_table_info('runs') WHERE name = 'args';
     SELECT name FROM sqlite_master WHERE name IN ('mcp_log_levels', 'runs_running_by_organization') ORDER BY name;`,
  ]);
  return { migrations, object, propertySource, history, passages, argsColumn, added };
}

/** The old data, unchanged; the schema, current. */
const UPGRADED = {
  migrations: MIGRATIONS.map((name) => ({ name })),
  object: [{ properties: '{"name":"Legacy Rival","domain":"legacy-rival.com"}', version: 2, created_at: '2026-11-20T00:00:00.000Z' }],
  propertySource: [{ source_id: 'imp_legacy' }],
  history: [{ to_value: '"Legacy Rival"' }],
  // The full-text index still finds the old passage.
  passages: [{ rowid: expect.any(Number) }],
  argsColumn: [{ notnull: 1, dflt_value: "'{}'" }],
  added: [{ name: 'mcp_log_levels' }, { name: 'runs_running_by_organization' }],
};

async function listedRun(url: string) {
  const response = await fetch(`${url}/api/v1/runs`, { headers: { Authorization: `Bearer ${ACME_DEMO_KEY}` } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { runs: { id: string; status: string; args: unknown }[] };
  return body.runs.find((run) => run.id === RUN_ID);
}

// Each test runs several wrangler processes (old schema, migrations, seed, dev server): on a busy
// 2-core machine that alone can pass the e2e project's 60 s default.
describe('a local database made before migrations upgrades in place', { timeout: 180_000 }, () => {
  test('made by main at e1fcb32 (runs without args): 0001 changes nothing, 0002 adds runs.args, the data is kept and served', async () => {
    server = await startDevServer({ beforeSeed: oldDatabase('e1fcb32', null), knowledgeBase: false });

    expect(await inspect(server.persistTo)).toEqual(UPGRADED);
    expect(await listedRun(server.url)).toMatchObject({ status: 'completed', args: {} });
  });

  test('made by main at 4b33572 (runs with args): 0001 and 0002 are recorded as applied, the data and its run arguments are kept, seeding again changes nothing', async () => {
    server = await startDevServer({ beforeSeed: oldDatabase('4b33572', '{"domain":"legacy-rival.com"}'), knowledgeBase: false });

    expect(await inspect(server.persistTo)).toEqual(UPGRADED);
    expect(await listedRun(server.url)).toMatchObject({ status: 'completed', args: { domain: 'legacy-rival.com' } });

    await seedLocalDatabase({ persistTo: server.persistTo, quiet: true });
    expect(await inspect(server.persistTo)).toEqual(UPGRADED);
  });

  test('made before passages had their source title, domain and date (9a2cf49): refused with how to start over, nothing written', async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'recon-e2e-'));
    await runWrangler(['d1', 'execute', ...local(scratch), '--file', path.join(PROJECT_ROOT, 'test/e2e/fixtures/schema-9a2cf49.sql')], { quiet: true });
    await execute(scratch, `INSERT INTO organizations (id, slug, name, created_at) VALUES ('org_old', 'old', 'Old', '2026-11-22T00:00:00.000Z')`);

    await expect(seedLocalDatabase({ persistTo: scratch, quiet: true })).rejects.toThrow(
      `The local database in ${scratch} was made by Recon before 2026-11-22 (its passages have no source title, domain or date), and no migration upgrades it. Delete it (rm -rf ${scratch}) and run again: the schema and the demo data are recreated.`,
    );
    expect(await query(scratch, `SELECT name FROM sqlite_master WHERE name = 'd1_migrations'`)).toEqual([]);
    expect(await query(scratch, 'SELECT slug FROM organizations')).toEqual([{ slug: 'old' }]);
  });
});
