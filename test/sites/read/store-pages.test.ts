import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { countPagesStatement, sitePageStatement } from '../../../src/db/site-pages.ts';
import type { Db } from '../../../src/ground/db-session.ts';
import { storePage } from '../../../src/oms/import-pages.ts';
import { MAX_GROUP_CHARS, storePages, type PageToStore } from '../../../src/sites/read/store-pages.ts';
import { createOrganization } from '../../helpers/fixtures.ts';
import { recordingD1 } from '../../helpers/recording-d1.ts';

/**
 * The texts of two pages ready together go in one D1 batch (store-pages.ts): the rows they leave
 * are the rows storePage leaves for each, one after the other, at the same time (sources, their
 * provenance and history, their passages with their sentences' facts, the pages' records).
 */

const AT = '2026-11-28T10:00:00.000Z';
const RUN = { kind: 'site-read', id: 'run_store_pages' } as const;

/** A page of `site` whose text holds sentences research reads (figures, a date, a count). */
function page(site: string, path: string, extra = ''): PageToStore['page'] {
  return {
    ok: true,
    url: `https://${site}${path}`,
    bytes: 1000,
    title: `${site} ${path}`,
    content:
      `The Team plan of ${site} costs $49 per seat per month, billed annually since March 2024. ` +
      `More than 1,200 companies use it across 14 countries, and the trial lasts 30 days. ${extra}\n\n` +
      `Support answers within 4 hours on weekdays. The Enterprise plan adds SSO and an uptime SLA of 99.9%.`,
    truncated: false,
  };
}

/** What storePage is given for `text` in a site read: the page's record and the day's count, chosen by the outcome. */
function item(db: Db, org: string, text: PageToStore['page'], likelyNew = true): PageToStore {
  return {
    page: text,
    source: RUN,
    at: AT,
    likelyNew,
    also: (outcome) => [
      sitePageStatement(db, org, { url: text.url, domain: new URL(text.url).host, runId: RUN.id, at: AT, state: 'live', contentHash: 'h', outcome: outcome === 'unchanged' ? 'unchanged' : 'new', changed: outcome !== 'unchanged' }),
      countPagesStatement(db, org, AT.slice(0, 10)),
    ],
  };
}

async function rows(sql: string, org: string): Promise<unknown[]> {
  return (await env.DB.prepare(sql).bind(org).all()).results;
}

/** Every row the store writes for `org`, without its organization (and the passages' ids as offsets from its first). */
async function stored(org: string) {
  const passages = (await rows('SELECT id, source_key, domain, title, published_at, ordinal, text, facts, facts_version FROM passages WHERE organization_id = ? ORDER BY id', org)) as { id: number }[];
  const first = passages[0]?.id ?? 0;
  return {
    objects: await rows('SELECT type, key, properties, version, created_at, updated_at FROM objects WHERE organization_id = ? ORDER BY type, key', org),
    provenance: await rows('SELECT type, key, name, source_kind, source_id, source_url, updated_at FROM property_sources WHERE organization_id = ? ORDER BY type, key, name', org),
    history: await rows('SELECT type, key, at, property, from_value, to_value, source_kind, source_id FROM object_history WHERE organization_id = ? ORDER BY id', org),
    passages: passages.map(({ id, ...rest }) => ({ offset: id - first, ...rest })),
    pages: await rows('SELECT url, domain, state, etag, last_modified, content_hash, first_read_at, last_read_at, changed_at, run_id, outcome FROM site_pages WHERE organization_id = ? ORDER BY url', org),
    usage: await rows('SELECT day, pages FROM site_read_usage WHERE organization_id = ?', org),
  };
}

/** Stores `texts` of `org` one after the other with storePage (the reference), through `db`. */
async function oneByOne(db: Db, org: string, texts: PageToStore['page'][]) {
  const results = [];
  for (const text of texts) {
    const one = item(db, org, text);
    results.push(await storePage(db, org, one.page, one.source, one.at, one.also, { likelyNew: one.likelyNew }));
  }
  return results;
}

describe('storePages', () => {
  it('stores two new pages in one batch, with the rows storePage leaves for each', async () => {
    const [apart, together] = [await createOrganization({ profile: 'none' }), await createOrganization({ profile: 'none' })];
    const texts = [page('acme.example', '/pricing'), page('acme.example', '/customers', 'Customers like Globex renewed in 2025.')];
    const expected = await oneByOne(env.DB, apart.id, texts);

    const { db, work } = recordingD1(env.DB);
    const results = await Promise.all(storePages(db, together.id, texts.map((text) => item(db, together.id, text))));
    expect(results).toEqual(expected);
    expect(results.map((r) => r.ok && r.outcome)).toEqual(['created', 'created']);
    expect(work.batches).toBe(1);
    // One statement per table for both pages, not one per page: 18 apart.
    expect(work.statements).toBeLessThan(14);
    expect(await stored(together.id)).toEqual(await stored(apart.id));
    expect((await stored(together.id)).passages.length).toBeGreaterThan(1);
  });

  it('stores each page alone when one is stored already (its guard fails, nothing of the batch is written)', async () => {
    const [apart, together] = [await createOrganization({ profile: 'none' }), await createOrganization({ profile: 'none' })];
    const earlier = page('initech.example', '/about');
    const texts = [page('initech.example', '/about', 'It moved to Austin in 2023.'), page('initech.example', '/jobs')];
    await oneByOne(env.DB, apart.id, [earlier]);
    await oneByOne(env.DB, together.id, [earlier]);
    const expected = await oneByOne(env.DB, apart.id, texts);

    const results = await Promise.all(storePages(env.DB, together.id, texts.map((text) => item(env.DB, together.id, text))));
    expect(results).toEqual(expected);
    expect(results.map((r) => r.ok && r.outcome)).toEqual(['updated', 'created']);
    expect(await stored(together.id)).toEqual(await stored(apart.id));
  });

  it('stores alone, after the group, the pages that may not go with it: not likely new, a key twice, past MAX_GROUP_CHARS', async () => {
    const [apart, together] = [await createOrganization({ profile: 'none' }), await createOrganization({ profile: 'none' })];
    const long = { ...page('hooli.example', '/long'), content: `${'The plan costs $10 per seat. '.repeat(MAX_GROUP_CHARS / 29)}` };
    const [a, again, b, c] = [page('hooli.example', '/a'), page('hooli.example', '/a', 'Now with a second sentence of 2026.'), page('hooli.example', '/b'), page('hooli.example', '/c')];
    // Written in this order: the group (a and c), then each of the others alone, in their order.
    const [ra, rc, ragain, rb, rlong] = await oneByOne(env.DB, apart.id, [a, c, again, b, long]);
    const { db, work } = recordingD1(env.DB);
    const texts = [a, again, b, long, c];
    const results = await Promise.all(storePages(db, together.id, texts.map((text) => item(db, together.id, text, text !== b))));
    expect(results).toEqual([ra, ragain, rb, rlong, rc]);
    expect(results.map((r) => r.ok && r.outcome)).toEqual(['created', 'updated', 'created', 'created', 'created']);
    // The group's batch, then a' (a guarded try, refused, then read and written), b (read and written) and the long page (guarded).
    expect(work.batches).toBe(1 + 3 + 2 + 1);
    expect(await stored(together.id)).toEqual(await stored(apart.id));
  });

  it("fails every page of a group whose batch fails for another reason (none of it was written)", async () => {
    const org = await createOrganization({ profile: 'none' });
    const failing: Db = {
      prepare: (query) => env.DB.prepare(query),
      batch: async () => {
        throw new Error('D1 is down');
      },
    };
    const texts = [page('umbrella.example', '/a'), page('umbrella.example', '/b')];
    const results = await Promise.allSettled(storePages(failing, org.id, texts.map((text) => item(failing, org.id, text))));
    expect(results.map((r) => r.status === 'rejected' && (r.reason as Error).message)).toEqual(['D1 is down', 'D1 is down']);
    expect((await stored(org.id)).objects).toEqual([]);
  });
});
