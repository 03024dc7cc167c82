/**
 * Brings the LOCAL D1 to the current schema: `wrangler d1 migrations apply DB --local` applies what
 * migrations/ holds beyond what the database's d1_migrations table records. Used by `npm run dev`,
 * `npm run db:local` and the e2e tests (through seedLocalDatabase).
 *
 * A local database made before migrations existed (`wrangler d1 execute --file schema.sql`, up to
 * 2026-11-23) has no d1_migrations table; it is adopted first, keeping its data:
 * - made by `main` before runs.args (e.g. commit e1fcb32): nothing to record; 0001 is IF NOT EXISTS
 *   throughout and changes nothing, 0002 adds the column, the index and the table it lacks;
 * - made by `main` with runs.args (from 2026-11-23 19:00, e.g. commit 4b33572): it already has
 *   everything 0001 and 0002 create, so they are recorded as applied (0002's ALTER TABLE would fail
 *   on the column it has), and later migrations apply normally;
 * - made before passages carried their source's title, domain and date (2026-11-22): no migration
 *   upgrades it; refused with how to start over.
 */
import path from 'node:path';
import { queryD1, runWrangler } from './wrangler.ts';

/** The migrations a pre-migration database that has runs.args already has the schema of. */
export const PRE_MIGRATION_SCHEMA_WITH_RUN_ARGS = ['0001_baseline.sql', '0002_runs_args_and_mcp_log_levels.sql'];

export interface LocalDatabase {
  /** Local state directory (wrangler's --persist-to); default: wrangler's own .wrangler/state. */
  persistTo?: string;
  /** Keep wrangler's output unless it fails. */
  quiet?: boolean;
}

/** Applies every migration the local D1 (binding DB) lacks; rejects if wrangler fails. */
export async function applyLocalMigrations(options: LocalDatabase = {}): Promise<void> {
  const target = ['DB', '--local', ...(options.persistTo ? ['--persist-to', path.resolve(options.persistTo)] : [])];
  await adoptPreMigrationDatabase(target, options.persistTo);
  await runWrangler(['d1', 'migrations', 'apply', ...target], { quiet: options.quiet });
}

const has = (sql: string) => `(SELECT count(*) > 0 FROM ${sql})`;
const STATE_QUERY = `SELECT
  ${has(`sqlite_master WHERE type = 'table' AND name = 'd1_migrations'`)} AS migrated,
  ${has(`sqlite_master WHERE type = 'table' AND name = 'organizations'`)} AS created,
  ${has(`pragma_table_info('passages') WHERE name = 'published_at'`)} AS passage_dates,
  ${has(`pragma_table_info('runs') WHERE name = 'args'`)} AS run_args,
  ${has(`sqlite_master WHERE type = 'table' AND name = 'mcp_log_levels'`)} AS mcp_log_levels,
  ${has(`sqlite_master WHERE type = 'index' AND name = 'runs_running_by_organization'`)} AS running_index`;

/** Records, in a database made before migrations, the migrations its schema already has. */
async function adoptPreMigrationDatabase(target: readonly string[], persistTo: string | undefined): Promise<void> {
  const [rows] = await queryD1(['d1', 'execute', ...target, '--command', STATE_QUERY]);
  const state = rows?.[0];
  if (!state) throw new Error('Reading the local database schema returned nothing.');
  // Already managed by migrations, or empty: `migrations apply` does everything.
  if (state.migrated || !state.created) return;
  const where = persistTo ? path.resolve(persistTo) : path.join('.wrangler', 'state');
  const startOver = `Delete it (rm -rf ${where}) and run again: the schema and the demo data are recreated.`;
  if (!state.passage_dates) {
    throw new Error(`The local database in ${where} was made by Recon before 2026-11-22 (its passages have no source title, domain or date), and no migration upgrades it. ${startOver}`);
  }
  if (!state.run_args) return;
  if (!state.mcp_log_levels || !state.running_index) {
    throw new Error(`The local database in ${where} has runs.args but not mcp_log_levels or runs_running_by_organization, a schema Recon never made. ${startOver}`);
  }
  const names = PRE_MIGRATION_SCHEMA_WITH_RUN_ARGS.map((name) => `('${name}')`).join(', ');
  // The table as wrangler creates it (d1 migrations apply), so wrangler reads what we record.
  await queryD1([
    'd1',
    'execute',
    ...target,
    '--command',
    `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL);
INSERT INTO d1_migrations (name) VALUES ${names};`,
  ]);
}
