/**
 * The SQL of a Durable Object's own SQLite storage, as the `agents` Agent exposes it (`this.sql`):
 * a template tag whose interpolated values are bound as parameters, answering the rows. The
 * statements of the run and watch objects (run-object-storage.ts, watch-object-storage.ts,
 * webhook-outbox.ts) take it as their first argument. Synchronous: nothing else runs in the object
 * between two statements, so a read and the write that depends on it are a compare-and-set.
 */
export type SqlValue = string | number | boolean | null;
export type Sql = <T = Record<string, SqlValue>>(strings: TemplateStringsArray, ...values: SqlValue[]) => T[];
