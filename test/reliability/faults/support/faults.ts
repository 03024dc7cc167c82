import { env } from 'cloudflare:workers';

/**
 * The fault suite's pieces: a tally whose `[reliability]` line the README cites, a D1 binding that
 * fails on cue (the real binding underneath: what it lets through runs against real D1), and a
 * snapshot of the D1 tables a failed operation must leave as they were.
 */

/** The fault suite's fast-check seed: fixed, so a run is reproducible (a failure prints its counterexample path). */
export const FAULT_SEED = 20_261_117;

/** Counts what the suite did: schedules run, faults injected by kind, and anything lost. */
export class Tally {
  schedules = 0;
  readonly faults = new Map<string, number>();
  lost = 0;

  constructor(readonly suite: string) {}

  fault(kind: string, count = 1): void {
    if (count > 0) this.faults.set(kind, (this.faults.get(kind) ?? 0) + count);
  }

  total(): number {
    let sum = 0;
    for (const n of this.faults.values()) sum += n;
    return sum;
  }

  /** The line the README cites; shown even when the test passes. */
  print(): void {
    const kinds = [...this.faults.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => `${kind} ${n}`);
    console.log(`[reliability] faults/${this.suite}: ${this.schedules} fault schedules, ${this.total()} faults injected (${kinds.join(', ')}), ${this.lost} lost (seed ${FAULT_SEED})`);
  }
}

/** What a FailingD1 does to the next calls that reach it. */
export interface D1Faults {
  /** The next `batch` runs a statement that fails at this position (clamped to the batch), after the ones before it ran: real D1 rolls the whole batch back. */
  batchFailsAt?: number;
  /** Batches let through before the one that fails (default none). */
  batchesBefore?: number;
  /** The next read (`first`, `all`, `raw`) throws, as D1 does when it is unreachable or overloaded. */
  readFails?: boolean;
  /** The next `run` throws. */
  runFails?: boolean;
}

/** The error D1 gives when it is overloaded; a fault injected before the call reaches D1. */
const UNAVAILABLE = 'D1_ERROR: Network connection lost.';

/**
 * The real D1 binding with faults armed one at a time (each fires once, then the binding is plain
 * again). A mid-batch failure is real: a statement that fails in D1 is put into the batch at the
 * armed position, so D1 runs the statements before it and then rolls the batch back, as it does
 * when any statement of a batch fails.
 */
export class FailingD1 {
  armed: D1Faults = {};
  /** Faults that fired. */
  fired = { batch: 0, read: 0, run: 0 };
  readonly db: D1Database;

  constructor(real: D1Database = env.DB) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
      new Proxy(statement, {
        get(target, property) {
          if (property === 'bind') return (...values: unknown[]) => wrapStatement(target.bind(...values));
          if (property === 'first' || property === 'all' || property === 'raw') {
            return (...args: unknown[]) => {
              if (self.armed.readFails) {
                self.armed.readFails = false;
                self.fired.read++;
                return Promise.reject(new Error(UNAVAILABLE));
              }
              return (target[property] as (...a: unknown[]) => unknown)(...args);
            };
          }
          if (property === 'run') {
            return () => {
              if (self.armed.runFails) {
                self.armed.runFails = false;
                self.fired.run++;
                return Promise.reject(new Error(UNAVAILABLE));
              }
              return target.run();
            };
          }
          const value = Reflect.get(target, property, target) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    this.db = new Proxy(real, {
      get(target, property) {
        // Its sessions are the failing binding itself, so code that opens one still meets the faults
        // (a session it hands out reports no bookmark).
        if (property === 'withSession') return () => self.db;
        if (property === 'getBookmark') return () => null;
        if (property === 'prepare') return (sql: string) => wrapStatement(target.prepare(sql));
        if (property === 'batch') {
          return (statements: D1PreparedStatement[]) => {
            const at = self.armed.batchFailsAt;
            if (at === undefined) return target.batch(statements);
            if ((self.armed.batchesBefore ?? 0) > 0) {
              self.armed.batchesBefore!--;
              return target.batch(statements);
            }
            self.armed.batchFailsAt = undefined;
            self.fired.batch++;
            const position = Math.min(Math.max(0, at), statements.length);
            // A real failing statement: D1 has run the ones before it when it fails, and rolls all back.
            const failing = target.prepare('INSERT INTO recon_fault_injected (x) VALUES (1)');
            return target.batch([...statements.slice(0, position), failing, ...statements.slice(position)]);
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

/** Tables an operation's own bookkeeping writes whatever its outcome; compared separately. */
const BOOKKEEPING = new Set(['api_keys', 'watches', 'runs', 'sessions', 'mcp_log_levels']);

let tableNames: string[] | undefined;

async function tables(): Promise<string[]> {
  if (tableNames) return tableNames;
  const { results } = await env.DB.prepare(
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name`,
  ).all<{ name: string; sql: string }>();
  // The FTS5 index is compared through its shadow tables.
  tableNames = results.filter((t) => !/CREATE VIRTUAL TABLE/i.test(t.sql) && !BOOKKEEPING.has(t.name)).map((t) => t.name);
  return tableNames;
}

/**
 * Every data table's rows, as one sorted text per table (the tables are small in this suite).
 * `besideFetchedSources`: leave out the `source` objects (their rows in objects, property_sources,
 * object_history, and their passages): web pages a research provider fetched join the knowledge
 * base in their own batch, kept whatever becomes of the brief (src/research/store-brief.ts).
 */
export async function dataSnapshot(options: { besideFetchedSources?: boolean } = {}): Promise<Record<string, string>> {
  const skipSources = options.besideFetchedSources ?? false;
  const names = (await tables()).filter((name) => !(skipSources && name.startsWith('passages')));
  const query = (name: string) =>
    skipSources && ['objects', 'property_sources', 'object_history'].includes(name) ? `SELECT * FROM "${name}" WHERE type <> 'source'` : `SELECT * FROM "${name}"`;
  const results = await env.DB.batch(names.map((name) => env.DB.prepare(query(name))));
  const state: Record<string, string> = {};
  names.forEach((name, i) => {
    const rows = (results[i]!.results as Record<string, unknown>[]).map((row) =>
      JSON.stringify(row, (_k, v: unknown) => (v instanceof ArrayBuffer ? [...new Uint8Array(v)] : v)),
    );
    state[name] = rows.sort().join('\n');
  });
  return state;
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
