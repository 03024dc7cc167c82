/**
 * `npm run keys -- <command>`: the operator CLI for API keys (decisions.md, "Keys, organizations,
 * scopes"). It talks to D1 through scripts/lib/local-d1.ts: the deployed database with --remote
 * (`wrangler d1 execute --remote`); the local one by default, through the dev server when `npm run
 * dev` serves the same state (so neither fails because of the other), else through `wrangler d1
 * execute --local`. Only a key's SHA-256 and display prefix are stored; the full key is printed
 * once, by `create`.
 *
 * Values reach SQL as literals (`wrangler d1 execute --command` takes no parameters, and the same
 * statements run either way), so every value is validated first and quoted with `sql()`.
 */
import { parseArgs } from 'node:util';
import { displayPrefix, generateApiKey, hashApiKey, parseScopes, randomId, SCOPES, type Scope } from '../src/ground/api-key.ts';
import { executeD1, LocalD1Error, type D1Target, type Row } from './lib/local-d1.ts';

const USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  create --org <slug> --name <name> [--scopes a,b]
      Create a key for the organization <slug>, creating the organization (with an unfinished
      sales profile) if it does not exist. Scopes default to all: ${SCOPES.join(', ')}.
      The full key is printed once and cannot be shown again.
  list --org <slug>
      List the organization's keys (never the key itself or its hash).
  revoke <keyId>
      Revoke a key; it stops working within 10 seconds.

Options:
  --remote            use the deployed database (default: the local one)
  --persist-to <dir>  local state directory, as for wrangler (default: .wrangler/state)
  -h, --help          show this help`;

const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}$/;
const KEY_ID_PATTERN = /^key_[A-Za-z0-9_]{1,100}$/;

class UsageError extends Error {}

// ---------------------------------------------------------------------------------------------
// SQL: one function per command. Every value passes through sql().

/** A SQL string literal: single quotes doubled. Only ever given validated values. */
function sql(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

interface NewKeyRow {
  keyId: string;
  orgId: string;
  slug: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: readonly Scope[];
  now: string;
}

/** Creates the organization if the slug is new (name = slug, no profile yet), then the key. */
function createKeySql(k: NewKeyRow): string[] {
  return [
    `INSERT INTO organizations (id, slug, name, created_at)
  VALUES (${sql(k.orgId)}, ${sql(k.slug)}, ${sql(k.slug)}, ${sql(k.now)})
  ON CONFLICT (slug) DO NOTHING;`,
    `INSERT INTO api_keys (id, organization_id, name, prefix, hash, scopes, created_at)
  SELECT ${sql(k.keyId)}, id, ${sql(k.name)}, ${sql(k.prefix)}, ${sql(k.hash)}, ${sql(k.scopes.join(' '))}, ${sql(k.now)}
  FROM organizations WHERE slug = ${sql(k.slug)};`,
    `SELECT k.id AS key_id, o.id = ${sql(k.orgId)} AS created_org
  FROM api_keys k JOIN organizations o ON o.id = k.organization_id
  WHERE k.id = ${sql(k.keyId)};`,
  ];
}

/** One row per key; one row with key_id NULL for an organization without keys; none for no organization. */
function listKeysSql(slug: string): string[] {
  return [
    `SELECT k.id AS key_id, k.name, k.prefix, k.scopes, k.created_at, k.last_used_at, k.revoked_at
  FROM organizations o LEFT JOIN api_keys k ON k.organization_id = o.id
  WHERE o.slug = ${sql(slug)}
  ORDER BY k.created_at, k.id;`,
  ];
}

/** Revokes the key unless already revoked, then reads it back (no row: no such key). */
function revokeKeySql(keyId: string, now: string): string[] {
  return [
    `UPDATE api_keys SET revoked_at = ${sql(now)} WHERE id = ${sql(keyId)} AND revoked_at IS NULL;`,
    `SELECT k.id AS key_id, k.revoked_at, o.slug
  FROM api_keys k JOIN organizations o ON o.id = k.organization_id
  WHERE k.id = ${sql(keyId)};`,
  ];
}

// ---------------------------------------------------------------------------------------------
// Talking to D1.

type Target = D1Target;

/** Runs `statements` as one batch and returns the rows of the last statement. */
async function d1(target: Target, statements: string[]): Promise<Row[]> {
  try {
    return await executeD1(target, statements);
  } catch (error) {
    if (!(error instanceof LocalD1Error) || !error.fromDatabase) throw error;
    const hint = !target.remote && error.message.includes('no such table') ? ' (run `npm run db:local` first)' : '';
    throw new Error(`${error.via} failed: ${error.message}${hint}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Commands.

async function createKey(target: Target, slug: string, name: string, scopes: readonly Scope[]): Promise<void> {
  const key = generateApiKey();
  const row: NewKeyRow = {
    keyId: randomId('key'),
    orgId: randomId('org'),
    slug,
    name,
    prefix: displayPrefix(key),
    hash: await hashApiKey(key),
    scopes,
    now: new Date().toISOString(),
  };
  const [created] = await d1(target, createKeySql(row));
  if (!created) throw new Error(`The key was not stored (organization ${slug} not found after insert).`);
  if (created.created_org) console.log(`Created organization ${slug} (sales profile not finished yet).`);
  console.log(`Created key ${row.keyId} "${name}" for ${slug} with scopes: ${scopes.join(', ')}.`);
  console.log('');
  console.log(`  ${key}`);
  console.log('');
  console.log('Store it now: this key cannot be shown again (only its hash is kept).');
}

async function listKeys(target: Target, slug: string): Promise<number> {
  const rows = await d1(target, listKeysSql(slug));
  if (rows.length === 0) {
    console.error(`No organization with slug "${slug}".`);
    return 1;
  }
  const keys = rows.filter((row) => row.key_id !== null);
  if (keys.length === 0) {
    console.log(`Organization ${slug} has no keys.`);
    return 0;
  }
  printTable(
    ['id', 'name', 'prefix', 'scopes', 'created', 'last used', 'revoked'],
    keys.map((k) => [
      String(k.key_id),
      String(k.name),
      String(k.prefix),
      String(k.scopes).split(' ').join(','),
      String(k.created_at),
      k.last_used_at === null ? 'never' : String(k.last_used_at),
      k.revoked_at === null ? '-' : String(k.revoked_at),
    ]),
  );
  return 0;
}

async function revokeKey(target: Target, keyId: string): Promise<number> {
  const now = new Date().toISOString();
  const [key] = await d1(target, revokeKeySql(keyId, now));
  if (!key) {
    console.error(`No key with id ${keyId}.`);
    return 1;
  }
  if (key.revoked_at === now) {
    console.log(`Revoked key ${keyId} of ${key.slug}. It stops working within 10 seconds.`);
  } else {
    console.log(`Key ${keyId} of ${key.slug} was already revoked at ${key.revoked_at}; nothing changed.`);
  }
  return 0;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}

// ---------------------------------------------------------------------------------------------
// Command line.

function required(value: string | undefined, option: string): string {
  if (value === undefined) throw new UsageError(`Missing ${option}.`);
  return value;
}

function validSlug(value: string | undefined): string {
  const slug = required(value, '--org <slug>');
  if (!SLUG_PATTERN.test(slug)) {
    throw new UsageError(`Invalid slug "${slug}": 2-63 characters, lower-case letters, digits and "-", not starting with "-".`);
  }
  return slug;
}

function validName(value: string | undefined): string {
  const name = required(value, '--name <name>').trim();
  // Printable characters only: names are shown in tables and go into SQL as literals.
  if (name.length < 1 || name.length > 100 || /\p{Cc}/u.test(name)) {
    throw new UsageError('Invalid --name: 1-100 printable characters.');
  }
  return name;
}

function validScopes(value: string | undefined): Scope[] {
  if (value === undefined) return [...SCOPES];
  const { scopes, unknown } = parseScopes(value);
  if (unknown.length > 0) {
    throw new UsageError(`Unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; allowed: ${SCOPES.join(', ')}.`);
  }
  if (scopes.length === 0) throw new UsageError(`--scopes needs at least one of: ${SCOPES.join(', ')}.`);
  return scopes;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      org: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      remote: { type: 'boolean' },
      local: { type: 'boolean' },
      'persist-to': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.remote && (values.local || values['persist-to'] !== undefined)) {
    throw new UsageError('--remote cannot be combined with --local or --persist-to.');
  }
  const target: Target = values.remote ? { remote: true } : { remote: false, persistTo: values['persist-to'] };
  const [command, ...rest] = positionals;
  const allowed: Record<string, string[]> = { create: ['org', 'name', 'scopes'], list: ['org'], revoke: [] };
  if (command === undefined) throw new UsageError('Missing command.');
  if (!(command in allowed)) throw new UsageError(`Unknown command "${command}".`);
  for (const option of ['org', 'name', 'scopes'] as const) {
    if (values[option] !== undefined && !allowed[command]!.includes(option)) {
      throw new UsageError(`${command} does not take --${option}.`);
    }
  }
  if (command !== 'revoke' && rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}".`);

  switch (command) {
    case 'create':
      await createKey(target, validSlug(values.org), validName(values.name), validScopes(values.scopes));
      return 0;
    case 'list':
      return listKeys(target, validSlug(values.org));
    default: {
      if (rest.length !== 1) throw new UsageError('revoke takes exactly one key id.');
      const keyId = rest[0]!;
      if (!KEY_ID_PATTERN.test(keyId)) throw new UsageError(`Invalid key id "${keyId}": expected key_...`);
      return revokeKey(target, keyId);
    }
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(error instanceof Error ? error.message : String(error));
  if (usage) console.error(`\n${USAGE}`);
  process.exitCode = usage ? 2 : 1;
}
