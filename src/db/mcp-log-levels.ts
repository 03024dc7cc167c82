import type { Db } from '../ground/db-session.ts';
/** The MCP log level each API key chose (table mcp_log_levels). */

export async function readMcpLogLevel(db: Db, keyId: string): Promise<string | null> {
  const row = await db.prepare('SELECT level FROM mcp_log_levels WHERE key_id = ?').bind(keyId).first<{ level: string }>();
  return row?.level ?? null;
}

export async function writeMcpLogLevel(db: Db, keyId: string, level: string, updatedAt: string): Promise<void> {
  await db
    .prepare(
      `INSERT INTO mcp_log_levels (key_id, level, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key_id) DO UPDATE SET level = excluded.level, updated_at = excluded.updated_at`,
    )
    .bind(keyId, level, updatedAt)
    .run();
}
