import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { PASSAGE_BLOCK_BITS } from '../../src/db/passage-blocks.ts';
import { writeObjects } from '../../src/oms/store.ts';
import { findTopicPassages } from '../../src/research/search.ts';
import { createOrganization } from '../helpers/fixtures.ts';

const IMPORT = { kind: 'import', id: 'imp_scope' } as const;

/** A source whose one passage holds `word` (a word no other test writes) and its organization's name. */
function source(organization: string, n: number, word: string) {
  return {
    type: 'source' as const,
    key: `https://${organization}.example.com/page-${n}`,
    properties: { title: `${organization} page ${n}`, content: `The ${word} plan of ${organization} costs $${n} per seat.` },
  };
}

async function passageIds(organizationId: string): Promise<number[]> {
  const { results } = await env.DB.prepare('SELECT id FROM passages WHERE organization_id = ? ORDER BY id').bind(organizationId).all<{ id: number }>();
  return results.map((row) => row.id);
}

describe("a search reads only its organization's block of passages", () => {
  it('finds only its own passages of a word both organizations hold, written in turns, ranked or not', async () => {
    const [ours, theirs] = [await createOrganization(), await createOrganization()];
    const word = `zq${crypto.randomUUID().slice(0, 8)}`;
    for (let n = 0; n < 3; n++) {
      await writeObjects(env.DB, ours.id, [source('ours', n, word)], [], IMPORT);
      await writeObjects(env.DB, theirs.id, [source('theirs', n, word)], [], IMPORT);
    }
    const [ourIds, theirIds] = [await passageIds(ours.id), await passageIds(theirs.id)];
    expect(ourIds).toHaveLength(3);
    // Each organization's passages lie in one block of ids, in the order they were written.
    expect(new Set(ourIds.map((id) => Math.floor(id / 2 ** PASSAGE_BLOCK_BITS))).size).toBe(1);
    expect(Math.floor(ourIds[0]! / 2 ** PASSAGE_BLOCK_BITS)).not.toBe(Math.floor(theirIds[0]! / 2 ** PASSAGE_BLOCK_BITS));
    expect(ourIds.slice(1).map((id, i) => id - ourIds[i]!)).toEqual([1, 1]);

    // One word and several: every term matches few passages, so each is ranked.
    for (const words of [[word], [word, 'plan', 'seat']]) {
      const found = await findTopicPassages(env.DB, { organizationId: ours.id }, words, 10);
      expect(found.map((p) => p.id).sort()).toEqual(ourIds);
      expect(found.every((p) => p.sourceKey.startsWith('https://ours.example.com/'))).toBe(true);
    }
    const excluded = await findTopicPassages(env.DB, { organizationId: theirs.id, policy: { include: [], exclude: ['ours.example.com'] } }, [word], 10);
    expect(excluded.map((p) => p.sourceKey).sort()).toEqual([0, 1, 2].map((n) => `https://theirs.example.com/page-${n}`));
    expect(await findTopicPassages(env.DB, { organizationId: theirs.id, policy: { include: ['ours.example.com'], exclude: [] } }, [word], 10)).toEqual([]);
  });

  it('finds nothing for an organization that has never had a passage', async () => {
    const empty = await createOrganization();
    expect(await findTopicPassages(env.DB, { organizationId: empty.id }, ['plan', 'pricing'], 10)).toEqual([]);
  });

  it('keeps the ids of a re-imported source in its block, after the newest', async () => {
    const org = await createOrganization();
    const word = `zq${crypto.randomUUID().slice(0, 8)}`;
    await writeObjects(env.DB, org.id, [source('ours', 1, word), source('ours', 2, word)], [], IMPORT);
    const before = await passageIds(org.id);
    await writeObjects(env.DB, org.id, [{ ...source('ours', 1, word), properties: { ...source('ours', 1, word).properties, content: `Now the ${word} plan is free.` } }], [], IMPORT);
    const after = await passageIds(org.id);
    expect(after).toHaveLength(2);
    expect(Math.floor(after[1]! / 2 ** PASSAGE_BLOCK_BITS)).toBe(Math.floor(before[0]! / 2 ** PASSAGE_BLOCK_BITS));
    expect(after[1]).toBeGreaterThan(before[1]!);
  });

  it("refuses a passage written outside its organization's block, whoever writes it", async () => {
    const [ours, theirs] = [await createOrganization(), await createOrganization()];
    await writeObjects(env.DB, ours.id, [source('ours', 1, 'alpha')], [], IMPORT);
    await writeObjects(env.DB, theirs.id, [source('theirs', 1, 'alpha')], [], IMPORT);
    const [theirId] = await passageIds(theirs.id);
    const insert = (id: number | null, organizationId: string) =>
      env.DB.prepare(`INSERT INTO passages (id, organization_id, source_key, domain, title, ordinal, text) VALUES (?, ?, 'https://x.example.com/', 'x.example.com', 'x', 0, 'x')`)
        .bind(id, organizationId)
        .run();
    await expect(insert(theirId! + 1000, ours.id)).rejects.toThrow(/outside its organization's block/);
    await expect(insert(null, ours.id)).rejects.toThrow(/outside its organization's block/);
    const [ourId] = await passageIds(ours.id);
    await expect(env.DB.prepare('UPDATE passages SET organization_id = ? WHERE id = ?').bind(theirs.id, ourId).run()).rejects.toThrow(/outside its organization's block/);
    await expect(env.DB.prepare('UPDATE passages SET id = ? WHERE id = ?').bind(theirId! + 1000, ourId).run()).rejects.toThrow(/outside its organization's block/);
  });
});
