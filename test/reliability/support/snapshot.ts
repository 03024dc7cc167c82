import { env } from 'cloudflare:workers';

/**
 * Columns written on purpose by requests that are otherwise refused or read-only: a key's
 * `last_used_at` is written (at most once a minute, after the response) whenever the key
 * authenticates, whatever the answer. It is bookkeeping, not data the request asked to change.
 */
const IGNORED_COLUMNS: Record<string, readonly string[]> = { api_keys: ['last_used_at'] };

export interface TableState {
  rows: number;
  checksum: string;
}
export type Snapshot = Record<string, TableState>;

let tableNames: string[] | undefined;

async function tables(): Promise<string[]> {
  if (tableNames) return tableNames;
  const { results } = await env.DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name`,
  ).all<{ name: string }>();
  // The FTS5 virtual table is read through its shadow tables (passages_fts_data and the rest).
  const names = [];
  for (const { name } of results) {
    const sql = await env.DB.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).bind(name).first<{ sql: string }>();
    if (!/CREATE VIRTUAL TABLE/i.test(sql?.sql ?? '')) names.push(name);
  }
  tableNames = names;
  return names;
}

/** FNV-1a over a string, as 8 hex digits: enough to see that a table changed. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** Every D1 table's row count and a checksum of its rows (order-independent), in one batch. */
export async function snapshot(): Promise<Snapshot> {
  const names = await tables();
  const results = await env.DB.batch(names.map((name) => env.DB.prepare(`SELECT * FROM "${name}"`)));
  const state: Snapshot = {};
  names.forEach((name, i) => {
    const ignored = IGNORED_COLUMNS[name] ?? [];
    const rows = (results[i]!.results as Record<string, unknown>[]).map((row) => {
      const kept = Object.entries(row).filter(([column]) => !ignored.includes(column));
      return JSON.stringify(kept, (_k, v: unknown) => (v instanceof ArrayBuffer ? [...new Uint8Array(v)] : v));
    });
    rows.sort();
    state[name] = { rows: rows.length, checksum: fnv1a(rows.join('\n')) };
  });
  return state;
}

/** The tables whose rows differ between two snapshots, e.g. `objects: 12 -> 13 rows`. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const changed = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[name];
    const b = after[name];
    if (a?.rows !== b?.rows || a?.checksum !== b?.checksum) changed.push(`${name}: ${a?.rows ?? 0} -> ${b?.rows ?? 0} rows`);
  }
  return changed;
}
