import { failedGuard, guardStatement } from '../db/guard.ts';
import { forgetCompanyDirectory } from './company-directory.ts';
import { claimPassageBlockStatement, passageBlockOf } from '../db/passage-blocks.ts';
import { analyzePassage, encodeFacts, FACTS_VERSION } from '../research/sentence-facts.ts';
import { splitPassages } from '../research/text.ts';
import { domainOf, type ObjectType } from './object-types.ts';

/** Where a write came from: recorded as provenance on every property and link it touches. */
export interface WriteSource {
  kind: 'import' | 'research' | 'watch' | 'action';
  id: string;
  url?: string;
}

export interface ObjectWrite {
  type: ObjectType;
  key: string;
  /** Properties to set; properties not named keep their stored values. */
  properties: Record<string, unknown>;
  /** Where single properties came from, when that is more precise than the write's `source.url`. */
  sourceUrls?: Record<string, string>;
  /**
   * The key was made for this write (a random id, as a brief's), so nothing is stored under it and
   * no link from or to it exists: the write does not read them first (one D1 round trip less).
   */
  isNew?: true;
}

export interface LinkWrite {
  link: string;
  from: { type: ObjectType; key: string };
  to: { type: ObjectType; key: string };
}

/** `too_large`: with its stored properties the object would pass MAX_OBJECT_BYTES; nothing of it was written. */
export type WriteOutcome = 'created' | 'updated' | 'unchanged' | 'too_large';

/**
 * The most one object's properties may take as JSON (UTF-8): 1.5 MiB, so that the row with its key
 * stays under D1's 2,000,000 bytes and a brief's 500,000 characters of markdown still fit.
 */
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024;

export interface WriteResult {
  objects: WriteOutcome[];
  links: WriteOutcome[];
}

type Properties = Record<string, unknown>;

/** Statements that commit in the same batch as a change; for writeObjects, possibly chosen by its outcomes. */
export type AlsoStatements = readonly D1PreparedStatement[] | ((result: WriteResult) => readonly D1PreparedStatement[]);

/**
 * What a change needs to find when its batch commits: an object at exactly `version`, an object
 * present or absent, a link present or absent. A batch whose expectation does not hold writes
 * nothing, and the write function throws ExpectationFailed.
 */
export type Expectation =
  | { object: { type: ObjectType; key: string }; version: number }
  | { object: { type: ObjectType; key: string }; exists: boolean }
  | { link: LinkWrite; exists: boolean };

/** A write refused because an expectation did not hold; `found` is what is stored now (a version, null for absent, or whether the link exists). */
export class ExpectationFailed extends Error {
  constructor(
    readonly expectation: Expectation,
    readonly found: number | null | boolean,
    options?: { cause: unknown },
  ) {
    super(`expectation failed: ${JSON.stringify(expectation)}, found ${JSON.stringify(found)}`, options);
    this.name = 'ExpectationFailed';
  }
}

const encoder = new TextEncoder();

/** A source's derived properties: its canonical `url` and its `domain`. */
function withDerived(write: ObjectWrite): Properties {
  if (write.type !== 'source') return write.properties;
  return { ...write.properties, url: write.key, domain: write.properties.domain ?? domainOf(write.key) };
}

/**
 * Upserts objects and links in one D1 batch (one transaction: all of it or none), recording
 * provenance for every changed property, a history entry per change, and re-indexing sources
 * whose title or content changed. Each (type, key) may appear once per call. An object that would
 * pass MAX_OBJECT_BYTES is left as it is (`too_large`); the others are still written. `also`: more
 * statements to run in the same batch (an approval request's outcome), so they commit with the change;
 * a function of the outcomes picks them once they are known. `expect`: conditions checked inside the
 * batch (see Expectation); when one fails nothing is written and ExpectationFailed is thrown.
 */
export async function writeObjects(
  db: D1Database,
  organizationId: string,
  objects: readonly ObjectWrite[],
  links: readonly LinkWrite[],
  source: WriteSource,
  now = new Date().toISOString(),
  also: AlsoStatements = [],
  expect: readonly Expectation[] = [],
): Promise<WriteResult> {
  const { existing, existingLinks } = await readCurrent(db, organizationId, objects, links);

  const upserts: { type: string; key: string; properties: Properties }[] = [];
  const changes: Change[] = [];
  const reindex: SourceToIndex[] = [];
  const objectOutcomes = objects.map((write): WriteOutcome => {
    const before = existing.get(`${write.type}\u001f${write.key}`);
    const after = { ...before, ...withDerived(write) };
    const changed = Object.keys(after).filter((name) => JSON.stringify(before?.[name]) !== JSON.stringify(after[name]));
    if (before && changed.length === 0) return 'unchanged';
    if (encoder.encode(JSON.stringify(after)).byteLength > MAX_OBJECT_BYTES) return 'too_large';
    upserts.push({ type: write.type, key: write.key, properties: after });
    for (const name of changed) {
      changes.push({ type: write.type, key: write.key, name, from: before?.[name], to: after[name], url: write.sourceUrls?.[name] });
    }
    if (write.type === 'source' && (!before || ['content', 'title', 'publishedAt'].some((name) => changed.includes(name)))) {
      reindex.push({
        key: write.key,
        domain: String(after.domain),
        title: String(after.title),
        publishedAt: typeof after.publishedAt === 'string' ? after.publishedAt.slice(0, 10) : null,
        content: String(after.content),
      });
    }
    return before ? 'updated' : 'created';
  });
  const linkOutcomes = links.map((link): WriteOutcome => (existingLinks.has(linkId(link)) ? 'unchanged' : 'created'));
  const newLinks = links.filter((_, i) => linkOutcomes[i] === 'created');

  const result = { objects: objectOutcomes, links: linkOutcomes };
  const statements = [
    ...guardStatements(db, organizationId, expect),
    ...upsertStatements(db, organizationId, upserts, now),
    ...provenanceStatements(db, organizationId, changes, source, now),
    ...reindexStatements(db, organizationId, reindex),
    ...linkStatements(db, organizationId, newLinks, source, now),
    ...(typeof also === 'function' ? also(result) : also),
  ];
  if (statements.length) {
    try {
      await commit(db, organizationId, statements, expect);
    } finally {
      if (upserts.some((u) => u.type === 'company')) forgetCompanyDirectory(organizationId);
    }
  }
  return result;
}

/**
 * Deletes one object in one D1 batch: its row, every link from or to it, its property provenance
 * and (for a source) its passages; its history stays, with one entry per property it had (`to`
 * null) from `source`. `also` runs in the same batch, and `expect` guards it (see writeObjects).
 * A missing object deletes nothing else.
 */
export async function deleteObject(
  db: D1Database,
  organizationId: string,
  object: { type: ObjectType; key: string },
  source: WriteSource,
  now = new Date().toISOString(),
  also: readonly D1PreparedStatement[] = [],
  expect: readonly Expectation[] = [],
): Promise<void> {
  const { type, key } = object;
  const statements = [
    ...guardStatements(db, organizationId, expect),
    db
      .prepare(
        `INSERT INTO object_history (organization_id, type, key, at, property, from_value, to_value, source_kind, source_id)
         SELECT objects.organization_id, objects.type, objects.key, ?4, p.key,
                CASE p.type WHEN 'object' THEN p.value WHEN 'array' THEN p.value WHEN 'true' THEN 'true'
                            WHEN 'false' THEN 'false' WHEN 'null' THEN 'null' ELSE json_quote(p.value) END,
                NULL, ?5, ?6
           FROM objects, json_each(objects.properties) AS p
          WHERE objects.organization_id = ?1 AND objects.type = ?2 AND objects.key = ?3`,
      )
      .bind(organizationId, type, key, now, source.kind, source.id),
    db.prepare(`DELETE FROM property_sources WHERE organization_id = ?1 AND type = ?2 AND key = ?3`).bind(organizationId, type, key),
    db
      .prepare(`DELETE FROM links WHERE organization_id = ?1 AND ((from_type = ?2 AND from_key = ?3) OR (to_type = ?2 AND to_key = ?3))`)
      .bind(organizationId, type, key),
    ...(type === 'source' ? [db.prepare(`DELETE FROM passages WHERE organization_id = ?1 AND source_key = ?2`).bind(organizationId, key)] : []),
    db.prepare(`DELETE FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3`).bind(organizationId, type, key),
    ...also,
  ];
  try {
    await commit(db, organizationId, statements, expect);
  } finally {
    if (type === 'company') forgetCompanyDirectory(organizationId);
  }
}

/** Removes one link (a missing link removes nothing), with `also` in the same batch, guarded by `expect` (see writeObjects). */
export async function deleteLink(
  db: D1Database,
  organizationId: string,
  link: LinkWrite,
  also: readonly D1PreparedStatement[] = [],
  expect: readonly Expectation[] = [],
): Promise<void> {
  await commit(db, organizationId, [
    ...guardStatements(db, organizationId, expect),
    db
      .prepare(`DELETE FROM links WHERE organization_id = ?1 AND link = ?2 AND from_type = ?3 AND from_key = ?4 AND to_type = ?5 AND to_key = ?6`)
      .bind(organizationId, link.link, link.from.type, link.from.key, link.to.type, link.to.key),
    ...also,
  ], expect);
}

/** One guard per expectation, named `expect-<index>`; they go first in the batch, before anything changes. */
function guardStatements(db: D1Database, org: string, expect: readonly Expectation[]): D1PreparedStatement[] {
  return expect.map((e, i) => {
    const name = `expect-${i}`;
    if ('link' in e) {
      const l = e.link;
      return guardStatement(
        db,
        `EXISTS (SELECT 1 FROM links WHERE organization_id = ?1 AND link = ?2 AND from_type = ?3 AND from_key = ?4 AND to_type = ?5 AND to_key = ?6) = ?7`,
        [org, l.link, l.from.type, l.from.key, l.to.type, l.to.key, e.exists ? 1 : 0],
        name,
      );
    }
    if ('version' in e) {
      return guardStatement(db, `EXISTS (SELECT 1 FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3 AND version = ?4)`, [org, e.object.type, e.object.key, e.version], name);
    }
    return guardStatement(db, `EXISTS (SELECT 1 FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3) = ?4`, [org, e.object.type, e.object.key, e.exists ? 1 : 0], name);
  });
}

/** Runs a write batch; when one of its expectation guards fails it, throws ExpectationFailed with what is stored now. */
async function commit(db: D1Database, org: string, statements: D1PreparedStatement[], expect: readonly Expectation[]): Promise<void> {
  try {
    await db.batch(statements);
  } catch (error) {
    const expectation = expect[Number(/^expect-(\d+)$/.exec(failedGuard(error) ?? '')?.[1] ?? NaN)];
    if (!expectation) throw error;
    throw new ExpectationFailed(expectation, await foundNow(db, org, expectation), { cause: error });
  }
}

async function foundNow(db: D1Database, org: string, e: Expectation): Promise<number | null | boolean> {
  if ('link' in e) {
    const l = e.link;
    const row = await db
      .prepare(`SELECT 1 AS found FROM links WHERE organization_id = ?1 AND link = ?2 AND from_type = ?3 AND from_key = ?4 AND to_type = ?5 AND to_key = ?6`)
      .bind(org, l.link, l.from.type, l.from.key, l.to.type, l.to.key)
      .first<{ found: number }>();
    return row !== null;
  }
  const row = await db
    .prepare(`SELECT version FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3`)
    .bind(org, e.object.type, e.object.key)
    .first<{ version: number }>();
  return row?.version ?? null;
}

function linkId(link: LinkWrite): string {
  return [link.link, link.from.type, link.from.key, link.to.type, link.to.key].join('\u001f');
}

/** The stored properties of `objects` and which of `links` exist, read in one round trip. */
async function readCurrent(db: D1Database, organizationId: string, writes: readonly ObjectWrite[], allLinks: readonly LinkWrite[]) {
  const fresh = new Set(writes.filter((o) => o.isNew).map((o) => `${o.type}\u001f${o.key}`));
  const isFresh = (end: { type: string; key: string }) => fresh.has(`${end.type}\u001f${end.key}`);
  const objects = writes.filter((o) => !o.isNew);
  const links = allLinks.filter((l) => !isFresh(l.from) && !isFresh(l.to));
  const existing = new Map<string, Properties>();
  const existingLinks = new Set<string>();
  if (objects.length === 0 && links.length === 0) return { existing, existingLinks };
  const [objectRows, linkRows] = await db.batch([
    db
      .prepare(
        `SELECT type, key, properties FROM objects
          WHERE organization_id = ?1
            AND (type, key) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?2))`,
      )
      .bind(organizationId, JSON.stringify(objects.map((o) => [o.type, o.key]))),
    db
      .prepare(
        `SELECT link, from_type, from_key, to_type, to_key FROM links
          WHERE organization_id = ?1
            AND (link, from_type, from_key, to_type, to_key) IN (
              SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                     json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?2))`,
      )
      .bind(organizationId, JSON.stringify(links.map((l) => [l.link, l.from.type, l.from.key, l.to.type, l.to.key]))),
  ]);
  for (const row of objectRows!.results as { type: string; key: string; properties: string }[]) {
    existing.set(`${row.type}\u001f${row.key}`, JSON.parse(row.properties) as Properties);
  }
  for (const r of linkRows!.results as { link: string; from_type: string; from_key: string; to_type: string; to_key: string }[]) {
    existingLinks.add([r.link, r.from_type, r.from_key, r.to_type, r.to_key].join('\u001f'));
  }
  return { existing, existingLinks };
}

// Each statement below writes many rows from one JSON parameter (json_each), so a batch stays a
// handful of queries however many objects it carries (D1 counts queries per invocation). D1 refuses
// a bound string over 2,000,000 bytes (and fails the whole batch), so the rows go in pieces of at
// most PARAMETER_BYTES, one statement per piece.

const PARAMETER_BYTES = 1024 * 1024;

/** `rows` as JSON arrays of at most PARAMETER_BYTES of UTF-8 each; a row larger than that goes alone. */
function jsonPieces(rows: readonly unknown[]): string[] {
  const pieces: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  for (const row of rows) {
    const json = JSON.stringify(row);
    const size = encoder.encode(json).byteLength + 1;
    if (current.length > 0 && bytes + size > PARAMETER_BYTES) {
      pieces.push(`[${current.join(',')}]`);
      current = [];
      bytes = 2;
    }
    current.push(json);
    bytes += size;
  }
  if (current.length > 0) pieces.push(`[${current.join(',')}]`);
  return pieces;
}

function upsertStatements(db: D1Database, org: string, upserts: { type: string; key: string; properties: Properties }[], now: string) {
  return jsonPieces(upserts).map((piece) =>
    db
      .prepare(
        `INSERT INTO objects (organization_id, type, key, properties, version, created_at, updated_at)
         SELECT ?1, json_extract(value, '$.type'), json_extract(value, '$.key'), json_extract(value, '$.properties'), 1, ?2, ?2
           FROM json_each(?3) WHERE true
         ON CONFLICT (organization_id, type, key) DO UPDATE
           SET properties = excluded.properties, version = objects.version + 1, updated_at = excluded.updated_at`,
      )
      .bind(org, now, piece),
  );
}

interface Change {
  type: string;
  key: string;
  name: string;
  from: unknown;
  to: unknown;
  /** The property's own source URL, if the write named one (else the write's). */
  url?: string;
}

function provenanceStatements(db: D1Database, org: string, changes: Change[], source: WriteSource, now: string) {
  const rows = changes.map((c) => [c.type, c.key, c.name, c.from === undefined ? null : JSON.stringify(c.from), JSON.stringify(c.to), c.url ?? null]);
  return jsonPieces(rows).flatMap((piece) => [
    db
      .prepare(
        `INSERT INTO property_sources (organization_id, type, key, name, source_kind, source_id, source_url, updated_at)
         SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), ?2, ?3,
                coalesce(json_extract(value, '$[5]'), ?4), ?5
           FROM json_each(?6) WHERE true
         ON CONFLICT (organization_id, type, key, name) DO UPDATE
           SET source_kind = excluded.source_kind, source_id = excluded.source_id,
               source_url = excluded.source_url, updated_at = excluded.updated_at`,
      )
      .bind(org, source.kind, source.id, source.url ?? null, now, piece),
    db
      .prepare(
        `INSERT INTO object_history (organization_id, type, key, at, property, from_value, to_value, source_kind, source_id)
         SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?2, json_extract(value, '$[2]'),
                json_extract(value, '$[3]'), json_extract(value, '$[4]'), ?3, ?4
           FROM json_each(?5)`,
      )
      .bind(org, now, source.kind, source.id, piece),
  ]);
}

interface SourceToIndex {
  key: string;
  domain: string;
  title: string;
  publishedAt: string | null;
  content: string;
}

function reindexStatements(db: D1Database, org: string, sources: SourceToIndex[]) {
  if (sources.length === 0) return [];
  // Each passage is stored with the facts of its sentences (research/sentence-facts.ts), computed
  // here once rather than by every research call that reads it.
  const passages = sources.flatMap((s) =>
    splitPassages(s.content).map((text, ordinal) => [s.key, s.domain, s.title, s.publishedAt, ordinal, text, encodeFacts(analyzePassage(text))]),
  );
  return [
    ...jsonPieces(sources.map((s) => s.key)).map((piece) =>
      db.prepare(`DELETE FROM passages WHERE organization_id = ?1 AND source_key IN (SELECT value FROM json_each(?2))`).bind(org, piece),
    ),
    claimPassageBlockStatement(db, org),
    // Ids follow the newest of the organization's block, so its passages keep their write order.
    ...jsonPieces(passages).map((piece) =>
      db
        .prepare(
          `WITH block AS (${passageBlockOf('?1')}),
                next AS (SELECT coalesce((SELECT max(id) FROM passages WHERE id BETWEEN block.first AND block.last) + 1, block.first) AS id FROM block)
           INSERT INTO passages (id, organization_id, source_key, domain, title, published_at, ordinal, text, facts, facts_version)
           SELECT next.id + item.key, ?1, json_extract(item.value, '$[0]'), json_extract(item.value, '$[1]'), json_extract(item.value, '$[2]'),
                  json_extract(item.value, '$[3]'), json_extract(item.value, '$[4]'), json_extract(item.value, '$[5]'), json_extract(item.value, '$[6]'), ?3
             FROM next, json_each(?2) AS item`,
        )
        .bind(org, piece, FACTS_VERSION),
    ),
  ];
}

function linkStatements(db: D1Database, org: string, links: LinkWrite[], source: WriteSource, now: string) {
  const rows = links.map((l) => [l.link, l.from.type, l.from.key, l.to.type, l.to.key]);
  return jsonPieces(rows).map((piece) =>
    db
      .prepare(
        `INSERT INTO links (organization_id, link, from_type, from_key, to_type, to_key, source_kind, source_id, created_at)
         SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                json_extract(value, '$[3]'), json_extract(value, '$[4]'), ?2, ?3, ?4
           FROM json_each(?5) WHERE true
         ON CONFLICT DO NOTHING`,
      )
      .bind(org, source.kind, source.id, now, piece),
  );
}
