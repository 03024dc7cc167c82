import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { insertOrganizationStatement } from '../../src/db/organizations.ts';
import { writeObjects } from '../../src/oms/store.ts';
import { findTopicPassages } from '../../src/research/search.ts';

// Passage ids pass 2^53 from block 8192 on, where JavaScript numbers round: the range a search
// reads is computed by SQLite, so neighbouring blocks stay apart. A database of its own, so the
// high blocks do not move the blocks every other test's organizations get.

const IMPORT = { kind: 'import', id: 'imp_high' } as const;

function source(organization: string, n: number) {
  return {
    type: 'source' as const,
    key: `https://${organization}.example.com/page-${n}`,
    properties: { title: `${organization} page ${n}`, content: `The quetzal plan of ${organization} costs $${n} per seat.` },
  };
}

describe('passage blocks past 2^53', () => {
  it("keeps a search to its organization's block when the next block starts right after it", async () => {
    const db = env.HIGH_BLOCKS_DB;
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const now = new Date().toISOString();
    await db.batch([
      ...['a', 'b'].map((x) => insertOrganizationStatement(db, { id: `org_high_${x}`, slug: `high-${x}`, name: `High ${x}`, createdAt: now })),
      db.prepare(`INSERT INTO passage_blocks (organization_id, block) VALUES ('org_high_a', 9000), ('org_high_b', 9001)`),
    ]);
    // B's passages are written first, so its first id is exactly where A's block ends, plus one.
    await writeObjects(db, 'org_high_b', [source('b', 0), source('b', 1)], [], IMPORT);
    for (let n = 0; n < 3; n++) await writeObjects(db, 'org_high_a', [source('a', n)], [], IMPORT);
    const inBlocks = await db
      .prepare(`SELECT organization_id AS org, count(*) AS n, min(id >> 40) AS low, max(id >> 40) AS high FROM passages GROUP BY 1 ORDER BY 1`)
      .all();
    expect(inBlocks.results).toEqual([
      { org: 'org_high_a', n: 3, low: 9000, high: 9000 },
      { org: 'org_high_b', n: 2, low: 9001, high: 9001 },
    ]);

    const ours = await findTopicPassages(db, { organizationId: 'org_high_a' }, ['quetzal'], 10);
    expect(ours.map((p) => p.sourceKey).sort()).toEqual([0, 1, 2].map((n) => `https://a.example.com/page-${n}`));
    const theirs = await findTopicPassages(db, { organizationId: 'org_high_b' }, ['quetzal', 'plan'], 10);
    expect(theirs.map((p) => p.sourceKey).sort()).toEqual([0, 1].map((n) => `https://b.example.com/page-${n}`));
  });
});
