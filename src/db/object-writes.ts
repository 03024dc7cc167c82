import { guardStatement } from './guard.ts';
import { claimPassageBlockStatement, passageBlockOf } from './passage-blocks.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * The statements of OMS writes: objects, links, property provenance, history and the passages of
 * sources, and the guards and reads around them. oms/store.ts (`writeObjects`, `deleteObject`,
 * `deleteLink`) decides what changes and runs these in one D1 batch (one transaction); every
 * statement here is scoped by organization and every value is a bound parameter.
 */

/** Where a write came from: recorded as provenance on every property and link it touches. */
export interface WriteSource {
  kind: 'import' | 'research' | 'watch' | 'action' | 'site-read';
  id: string;
  url?: string;
}

/** An object by its identity. */
export interface ObjectRef {
  type: string;
  key: string;
}

/** A link by its identity: its name and both ends. */
export interface LinkRef {
  link: string;
  from: ObjectRef;
  to: ObjectRef;
}

type Properties = Record<string, unknown>;

/** A stored object's properties, as `findObjectsAndLinks` reads them. */
export interface StoredProperties extends ObjectRef {
  properties: Properties;
}

const encoder = new TextEncoder();

// Reads before a write

/**
 * The stored properties of `objects` and which of `links` exist, read in one round trip (one
 * batch of two statements, each taking its list as one JSON parameter).
 */
export async function findObjectsAndLinks(
  db: Db,
  organizationId: string,
  objects: readonly ObjectRef[],
  links: readonly LinkRef[],
): Promise<{ objects: StoredProperties[]; links: LinkRef[] }> {
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
  return {
    objects: (objectRows!.results as { type: string; key: string; properties: string }[]).map((row) => ({
      type: row.type,
      key: row.key,
      properties: JSON.parse(row.properties) as Properties,
    })),
    links: (linkRows!.results as { link: string; from_type: string; from_key: string; to_type: string; to_key: string }[]).map((r) => ({
      link: r.link,
      from: { type: r.from_type, key: r.from_key },
      to: { type: r.to_type, key: r.to_key },
    })),
  };
}

// Expectations: guards that go first in a write's batch (db/guard.ts), and what is stored now when one failed

/** A guard (named `name`) that fails its batch unless `object` is stored at exactly `version`. */
export function objectVersionGuard(db: Db, organizationId: string, object: ObjectRef, version: number, name: string): D1PreparedStatement {
  return guardStatement(db, `EXISTS (SELECT 1 FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3 AND version = ?4)`, [organizationId, object.type, object.key, version], name);
}

/** A guard (named `name`) that fails its batch unless `object` is stored (`exists`) or absent (not). */
export function objectExistsGuard(db: Db, organizationId: string, object: ObjectRef, exists: boolean, name: string): D1PreparedStatement {
  return guardStatement(db, `EXISTS (SELECT 1 FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3) = ?4`, [organizationId, object.type, object.key, exists ? 1 : 0], name);
}

/** A guard (named `name`) that fails its batch unless `link` is stored (`exists`) or absent (not). */
export function linkExistsGuard(db: Db, organizationId: string, l: LinkRef, exists: boolean, name: string): D1PreparedStatement {
  return guardStatement(
    db,
    `EXISTS (SELECT 1 FROM links WHERE organization_id = ?1 AND link = ?2 AND from_type = ?3 AND from_key = ?4 AND to_type = ?5 AND to_key = ?6) = ?7`,
    [organizationId, l.link, l.from.type, l.from.key, l.to.type, l.to.key, exists ? 1 : 0],
    name,
  );
}

/** Whether `link` is stored now. */
export async function linkExists(db: Db, organizationId: string, l: LinkRef): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 AS found FROM links WHERE organization_id = ?1 AND link = ?2 AND from_type = ?3 AND from_key = ?4 AND to_type = ?5 AND to_key = ?6`)
    .bind(organizationId, l.link, l.from.type, l.from.key, l.to.type, l.to.key)
    .first<{ found: number }>();
  return row !== null;
}

/** The stored version of `object`, or null when it is absent. */
export async function objectVersion(db: Db, organizationId: string, object: ObjectRef): Promise<number | null> {
  const row = await db
    .prepare(`SELECT version FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3`)
    .bind(organizationId, object.type, object.key)
    .first<{ version: number }>();
  return row?.version ?? null;
}

// Deletes

/**
 * The statements that delete one object, in order: a history entry per property it has (`to`
 * null, from `source`), its property provenance, every link from or to it, (for a source) its
 * passages, and its row. A missing object deletes nothing.
 */
export function deleteObjectStatements(db: Db, organizationId: string, object: ObjectRef, source: WriteSource, now: string): D1PreparedStatement[] {
  const { type, key } = object;
  return [
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
  ];
}

/** The statement that deletes one link (a missing link deletes nothing). */
export function deleteLinkStatement(db: Db, organizationId: string, link: LinkRef): D1PreparedStatement {
  return db
    .prepare(`DELETE FROM links WHERE organization_id = ?1 AND link = ?2 AND from_type = ?3 AND from_key = ?4 AND to_type = ?5 AND to_key = ?6`)
    .bind(organizationId, link.link, link.from.type, link.from.key, link.to.type, link.to.key);
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

/** Inserts each object with its whole properties, or replaces a stored one's and bumps its version. */
export function upsertObjectStatements(db: Db, organizationId: string, upserts: readonly StoredProperties[], now: string): D1PreparedStatement[] {
  return jsonPieces(upserts).map((piece) =>
    db
      .prepare(
        `INSERT INTO objects (organization_id, type, key, properties, version, created_at, updated_at)
         SELECT ?1, json_extract(value, '$.type'), json_extract(value, '$.key'), json_extract(value, '$.properties'), 1, ?2, ?2
           FROM json_each(?3) WHERE true
         ON CONFLICT (organization_id, type, key) DO UPDATE
           SET properties = excluded.properties, version = objects.version + 1, updated_at = excluded.updated_at`,
      )
      .bind(organizationId, now, piece),
  );
}

/** One property of one object that a write changes. */
export interface PropertyChange {
  type: string;
  key: string;
  name: string;
  from: unknown;
  to: unknown;
  /** The property's own source URL, if the write named one (else the write's). */
  url?: string;
}

/** Records each change: where the property's value now comes from, and an entry of the object's history. */
export function provenanceStatements(db: Db, organizationId: string, changes: readonly PropertyChange[], source: WriteSource, now: string): D1PreparedStatement[] {
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
      .bind(organizationId, source.kind, source.id, source.url ?? null, now, piece),
    db
      .prepare(
        `INSERT INTO object_history (organization_id, type, key, at, property, from_value, to_value, source_kind, source_id)
         SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?2, json_extract(value, '$[2]'),
                json_extract(value, '$[3]'), json_extract(value, '$[4]'), ?3, ?4
           FROM json_each(?5)`,
      )
      .bind(organizationId, now, source.kind, source.id, piece),
  ]);
}

/** One passage of a source to store, with its source's columns and its sentences' encoded facts. */
export interface PassageToStore {
  sourceKey: string;
  domain: string;
  title: string;
  publishedAt: string | null;
  ordinal: number;
  text: string;
  facts: string;
}

/**
 * Replaces the passages of the sources `sourceKeys` with `passages`: deletes their passages, gives
 * the organization its block of passage ids if it has none (db/passage-blocks.ts), and inserts the
 * new ones with `factsVersion`. None when `sourceKeys` is empty.
 */
export function reindexPassageStatements(
  db: Db,
  organizationId: string,
  sourceKeys: readonly string[],
  passages: readonly PassageToStore[],
  factsVersion: number,
): D1PreparedStatement[] {
  if (sourceKeys.length === 0) return [];
  const rows = passages.map((p) => [p.sourceKey, p.domain, p.title, p.publishedAt, p.ordinal, p.text, p.facts]);
  return [
    ...jsonPieces(sourceKeys).map((piece) =>
      db.prepare(`DELETE FROM passages WHERE organization_id = ?1 AND source_key IN (SELECT value FROM json_each(?2))`).bind(organizationId, piece),
    ),
    claimPassageBlockStatement(db, organizationId),
    // Ids follow the newest of the organization's block, so its passages keep their write order.
    ...jsonPieces(rows).map((piece) =>
      db
        .prepare(
          `WITH block AS (${passageBlockOf('?1')}),
                next AS (SELECT coalesce((SELECT max(id) FROM passages WHERE id BETWEEN block.first AND block.last) + 1, block.first) AS id FROM block)
           INSERT INTO passages (id, organization_id, source_key, domain, title, published_at, ordinal, text, facts, facts_version)
           SELECT next.id + item.key, ?1, json_extract(item.value, '$[0]'), json_extract(item.value, '$[1]'), json_extract(item.value, '$[2]'),
                  json_extract(item.value, '$[3]'), json_extract(item.value, '$[4]'), json_extract(item.value, '$[5]'), json_extract(item.value, '$[6]'), ?3
             FROM next, json_each(?2) AS item`,
        )
        .bind(organizationId, piece, factsVersion),
    ),
  ];
}

/** Inserts each link with its source; a link already stored is left as it is. */
export function insertLinkStatements(db: Db, organizationId: string, links: readonly LinkRef[], source: WriteSource, now: string): D1PreparedStatement[] {
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
      .bind(organizationId, source.kind, source.id, now, piece),
  );
}
