import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { PASSAGE_BLOCK_BITS } from '../../src/db/passage-blocks.ts';

const BLOCK = 2 ** PASSAGE_BLOCK_BITS;

/** Passages of two organizations written in turns, as a database made before 0012 holds them. */
async function passagesBefore0012(db: D1Database): Promise<void> {
  await applyD1Migrations(db, env.TEST_MIGRATIONS.filter((migration) => migration.name < '0012'));
  const insert = db.prepare(
    `INSERT INTO passages (organization_id, source_key, domain, title, published_at, ordinal, text) VALUES (?1, ?2, 'a.example.com', ?3, NULL, 0, ?4)`,
  );
  await db.batch(
    [0, 1, 2].flatMap((n) => [
      insert.bind('org_a', `https://a.example.com/${n}`, `A page ${n}`, `Passage ${n} of org a about zebras.`),
      insert.bind('org_b', `https://b.example.com/${n}`, `B page ${n}`, `Passage ${n} of org b about zebras.`),
    ]),
  );
}

describe('migration 0012 (passage blocks)', () => {
  it("moves each organization's passages into a block of its own, in their order, and indexes them again under their new ids", async () => {
    const db = env.UPGRADE_DB;
    await passagesBefore0012(db);
    await applyD1Migrations(db, env.TEST_MIGRATIONS);

    const { results: blocks } = await db.prepare('SELECT organization_id, block FROM passage_blocks ORDER BY block').all();
    expect(blocks).toEqual([{ organization_id: 'org_a', block: 1 }, { organization_id: 'org_b', block: 2 }]);
    const { results: passages } = await db.prepare('SELECT id, organization_id, source_key FROM passages ORDER BY id').all();
    expect(passages).toEqual([
      ...[0, 1, 2].map((n) => ({ id: BLOCK + n, organization_id: 'org_a', source_key: `https://a.example.com/${n}` })),
      ...[0, 1, 2].map((n) => ({ id: 2 * BLOCK + n, organization_id: 'org_b', source_key: `https://b.example.com/${n}` })),
    ]);

    // The index holds the new ids only, with the organization's token as the insert trigger writes it.
    const matches = async (expression: string) =>
      (await db.prepare('SELECT rowid AS id FROM passages_fts WHERE passages_fts MATCH ? ORDER BY rowid').bind(expression).all<{ id: number }>()).results.map((r) => r.id);
    expect(await matches('zebras')).toEqual([BLOCK, BLOCK + 1, BLOCK + 2, 2 * BLOCK, 2 * BLOCK + 1, 2 * BLOCK + 2]);
    expect(await matches('organization_id : "orgb" AND zebras')).toEqual([2 * BLOCK, 2 * BLOCK + 1, 2 * BLOCK + 2]);
    expect(await matches('organization_id : "org"')).toEqual([]);
    await db.prepare(`INSERT INTO passages_fts (passages_fts, rank) VALUES ('integrity-check', 0)`).run();

    // A passage deleted after the upgrade leaves the index too (the delete trigger finds it by its new id).
    await db.prepare('DELETE FROM passages WHERE id = ?').bind(BLOCK + 1).run();
    expect(await matches('zebras')).toEqual([BLOCK, BLOCK + 2, 2 * BLOCK, 2 * BLOCK + 1, 2 * BLOCK + 2]);
    await db.prepare(`INSERT INTO passages_fts (passages_fts, rank) VALUES ('integrity-check', 0)`).run();
  });
});
