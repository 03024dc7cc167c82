import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

/**
 * What SQLite knows about a database's schema, independent of how it was written: tables by their
 * columns, keys, indexes and foreign keys (an `ALTER TABLE ... ADD COLUMN` rewrites a table's stored
 * text, so table text cannot be compared), everything else (indexes, triggers, views, virtual
 * tables) by its statement without comments and spacing. Wrangler's and D1's own tables are left out.
 */
async function describeSchema(db: D1Database) {
  const { results: objects } = await db
    .prepare(
      `SELECT type, name, tbl_name AS tableName, sql FROM sqlite_master
       WHERE substr(name, 1, 7) <> 'sqlite_' AND substr(name, 1, 4) <> '_cf_' AND name <> 'd1_migrations'
       ORDER BY type, name`,
    )
    .all<{ type: string; name: string; tableName: string; sql: string | null }>();
  const described = [];
  for (const object of objects) {
    if (object.type === 'table' && !/^CREATE VIRTUAL/i.test(object.sql ?? '')) {
      const rows = (sql: string, ...params: unknown[]) => db.prepare(sql).bind(...params).all().then((result) => result.results);
      const indexes = await rows(`SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY name`, object.name);
      described.push({
        type: object.type,
        name: object.name,
        table: await rows(`SELECT type, ncol, wr, strict FROM pragma_table_list(?)`, object.name),
        columns: await rows(`SELECT cid, name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid`, object.name),
        foreignKeys: await rows(`SELECT id, seq, "table", "from", "to", on_update, on_delete, "match" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, object.name),
        indexes: await Promise.all(
          indexes.map(async (index) => ({
            ...index,
            columns: await rows(`SELECT seqno, cid, name, "desc", coll, "key" FROM pragma_index_xinfo(?) ORDER BY seqno`, index.name),
          })),
        ),
      });
    } else {
      described.push({ type: object.type, name: object.name, tableName: object.tableName, sql: normalize(object.sql) });
    }
  }
  return described;
}

/** A statement without comments, with single spaces and none inside parentheses or before commas. */
function normalize(sql: string | null): string | null {
  return (
    sql
      ?.replace(/--[^\n]*/g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s*([(),;])\s*/g, '$1')
      .trim() ?? null
  );
}

describe('migrations/', () => {
  it('applied in order to an empty database, yield exactly the schema of schema.sql', async () => {
    await applyD1Migrations(env.MIGRATIONS_DB, env.TEST_MIGRATIONS);
    await applyD1Migrations(env.SCHEMA_SQL_DB, env.TEST_SCHEMA_SQL);

    const fromMigrations = await describeSchema(env.MIGRATIONS_DB);
    const fromSchemaSql = await describeSchema(env.SCHEMA_SQL_DB);

    expect(fromMigrations).toEqual(fromSchemaSql);
    // The comparison sees the whole schema, including what a migration added with ALTER TABLE.
    expect(fromSchemaSql.find((object) => object.name === 'runs')).toMatchObject({
      columns: expect.arrayContaining([expect.objectContaining({ name: 'args', type: 'TEXT', notnull: 1, dflt_value: "'{}'" })]),
    });
    expect(fromSchemaSql.map((object) => object.name)).toEqual(
      expect.arrayContaining(['organizations', 'api_keys', 'objects', 'links', 'passages_fts', 'passages_fts_insert', 'runs_running_by_organization', 'mcp_log_levels']),
    );
  });

  it('are numbered 0001, 0002, ... without gaps or repeats, so every database applies them in one order', () => {
    const names = env.TEST_MIGRATIONS.map((migration) => migration.name);
    expect(names.length).toBeGreaterThanOrEqual(2);
    names.forEach((name, i) => expect(name).toMatch(new RegExp(`^${String(i + 1).padStart(4, '0')}_[a-z0-9_]+\\.sql$`)));
  });
});
