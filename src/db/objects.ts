/**
 * Reads of OMS objects, their links, provenance and history (search, pivot, get, provenance).
 * Every statement is scoped by organization and bounded by LIMIT; every value is a bound
 * parameter. Writes go through oms/store.ts.
 */

export interface StoredObject {
  type: string;
  key: string;
  properties: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  version: number;
}

interface ObjectRow {
  type: string;
  key: string;
  properties: string;
  version: number;
  created_at: string;
  updated_at: string;
}

const OBJECT_COLUMNS = 'o.type, o.key, o.properties, o.version, o.created_at, o.updated_at';

function toObject(row: ObjectRow): StoredObject {
  return {
    type: row.type,
    key: row.key,
    properties: JSON.parse(row.properties) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

/** A property name from the registry (letters and digits only), as a JSON path literal. */
function propertyPath(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`not a registry property name: ${name}`);
  return `'$.${name}'`;
}

/** The stored property `name`, as SQL: the same text as the expression indexes of schema.sql. */
function propertyValue(name: string): string {
  return `json_extract(o.properties, ${propertyPath(name)})`;
}

function getStatement(db: D1Database, organizationId: string, type: string, key: string) {
  return db
    .prepare(`SELECT ${OBJECT_COLUMNS} FROM objects o WHERE o.organization_id = ?1 AND o.type = ?2 AND o.key = ?3`)
    .bind(organizationId, type, key);
}

export async function getObject(db: D1Database, organizationId: string, type: string, key: string): Promise<StoredObject | null> {
  const row = await getStatement(db, organizationId, type, key).first<ObjectRow>();
  return row ? toObject(row) : null;
}

export type FilterOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'in';
type Scalar = string | number | boolean;

export interface PropertyFilter {
  /** A registry property name (checked by the caller). */
  property: string;
  op: FilterOp;
  value: Scalar | Scalar[];
}

export type SearchText =
  /** FTS5 query text (built by research/fts-query.ts) over the passages of sources. */
  | { kind: 'passages'; match: string }
  /** Lower-cased words, each to be found (as a substring) in at least one of `properties`. */
  | { kind: 'words'; words: string[]; properties: string[] };

export interface ObjectSearch {
  organizationId: string;
  type: string;
  text?: SearchText;
  filters: PropertyFilter[];
  /** `key`, `updatedAt`, `createdAt` or a registry property name. */
  orderBy: string;
  direction: 'asc' | 'desc';
  /** The sort value and key of the last object of the previous page. */
  after?: [string | number, string];
  limit: number;
}

const COLUMNS: Record<string, string> = { key: 'o.key', updatedAt: 'o.updated_at', createdAt: 'o.created_at' };

/** The SQL of the sort value: a column, or a property (missing: '' so that keyset comparisons never meet NULL). */
function sortExpression(orderBy: string): string {
  return COLUMNS[orderBy] ?? `ifnull(${propertyValue(orderBy)}, '')`;
}

/**
 * The properties with an expression index of their own, (organization, type, value, key): an `eq`
 * or `in` filter on one of them is read from that index. SQLite's planner, with no statistics,
 * otherwise prefers walking the primary key in key order and testing every object of the type,
 * which grows with the organization's data (bench:oms).
 */
const PROPERTY_INDEXES: Record<string, string> = { name: 'objects_by_name', domain: 'objects_by_domain' };

/** The index a search must read: the first `eq`/`in` filter on an indexed property, if any. */
function filterIndex(filters: readonly PropertyFilter[]): string | undefined {
  const filter = filters.find((f) => (f.op === 'eq' || f.op === 'in') && PROPERTY_INDEXES[f.property]);
  return filter && PROPERTY_INDEXES[filter.property];
}

const COMPARISONS: Record<Exclude<FilterOp, 'contains' | 'in'>, string> = { eq: '=', neq: 'IS NOT', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** A bound value as D1 takes it (booleans as json_extract gives them: 1 and 0). */
function bindable(value: Scalar): string | number {
  return typeof value === 'boolean' ? Number(value) : value;
}

/**
 * One page of `type` objects matching the search, in (sort value, key) order after `after`:
 * keyset pagination, never OFFSET, so a page costs the same however deep it is.
 */
export async function searchObjects(db: D1Database, search: ObjectSearch): Promise<{ object: StoredObject; sortValue: string | number }[]> {
  const params: unknown[] = [search.organizationId, search.type];
  const bind = (value: unknown) => `?${params.push(value)}`;
  const where = ['o.organization_id = ?1', 'o.type = ?2'];
  const text = search.text;
  if (text?.kind === 'passages') {
    where.push(
      `o.key IN (SELECT p.source_key FROM passages p WHERE p.organization_id = ?1
                  AND p.id IN (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ${bind(text.match)}))`,
    );
  } else if (text?.kind === 'words') {
    for (const word of text.words) {
      const placeholder = bind(word);
      where.push(`(${text.properties.map((name) => `instr(lower(ifnull(${propertyValue(name)}, '')), ${placeholder}) > 0`).join(' OR ')})`);
    }
  }
  for (const filter of search.filters) {
    const value = propertyValue(filter.property);
    if (filter.op === 'in') {
      where.push(`${value} IN (SELECT value FROM json_each(${bind(JSON.stringify((filter.value as Scalar[]).map(bindable)))}))`);
    } else if (filter.op === 'contains') {
      where.push(`instr(lower(${value}), lower(${bind(String(filter.value))})) > 0`);
    } else {
      where.push(`${value} ${COMPARISONS[filter.op]} ${bind(bindable(filter.value as Scalar))}`);
    }
  }
  const sort = sortExpression(search.orderBy);
  const direction = search.direction === 'desc' ? 'DESC' : 'ASC';
  const byKey = search.orderBy === 'key';
  if (search.after) {
    const comparison = direction === 'DESC' ? '<' : '>';
    // In key order the key alone is the position: a second, identical term would cost the index its order.
    where.push(byKey ? `o.key ${comparison} ${bind(search.after[1])}` : `(${sort}, o.key) ${comparison} (${bind(search.after[0])}, ${bind(search.after[1])})`);
  }
  const index = filterIndex(search.filters);
  const order = byKey ? `o.key ${direction}` : `sort_value ${direction}, o.key ${direction}`;
  const sql =
    `SELECT ${OBJECT_COLUMNS}, ${sort} AS sort_value FROM objects o${index ? ` INDEXED BY ${index}` : ''} WHERE ${where.join(' AND ')} ` +
    `ORDER BY ${order} LIMIT ${bind(search.limit)}`;
  const { results } = await db
    .prepare(sql)
    .bind(...params)
    .all<ObjectRow & { sort_value: string | number }>();
  return results.map((row) => ({ object: toObject(row), sortValue: row.sort_value }));
}

export interface PivotQuery {
  organizationId: string;
  link: string;
  /** True: from the object along `link` to its targets; false: from a target back to the objects linking to it. */
  forward: boolean;
  type: string;
  key: string;
  targetType: string;
  /** The key of the last object of the previous page. */
  after?: string;
  limit: number;
}

/**
 * The object (null when the organization has none such) and one page of the objects linked to it,
 * in key order after `after`. A link whose target is not stored is skipped.
 */
export async function pivotObjects(db: D1Database, query: PivotQuery): Promise<{ origin: StoredObject | null; objects: StoredObject[] }> {
  const [near, far] = query.forward ? ['from', 'to'] : ['to', 'from'];
  const [originRow, page] = await db.batch<ObjectRow>([
    getStatement(db, query.organizationId, query.type, query.key),
    db
      .prepare(
        `SELECT ${OBJECT_COLUMNS} FROM links l
           JOIN objects o ON o.organization_id = l.organization_id AND o.type = l.${far}_type AND o.key = l.${far}_key
          WHERE l.organization_id = ?1 AND l.link = ?2 AND l.${near}_type = ?3 AND l.${near}_key = ?4
            AND l.${far}_type = ?5 AND l.${far}_key > ?6
          ORDER BY l.${far}_key LIMIT ?7`,
      )
      .bind(query.organizationId, query.link, query.type, query.key, query.targetType, query.after ?? '', query.limit),
  ]);
  const origin = originRow!.results[0];
  return { origin: origin ? toObject(origin) : null, objects: page!.results.map(toObject) };
}

/** How many entries of each provenance list are read at most (the newest). */
export const PROVENANCE_LIMITS = { properties: 200, relationships: 100, history: 100 } as const;

export interface StoredProvenance {
  object: StoredObject | null;
  properties: { name: string; kind: string; id: string; url: string | null; updatedAt: string }[];
  relationships: { link: string; forward: boolean; type: string; key: string; kind: string; id: string; createdAt: string }[];
  history: { at: string; property: string; from: string | null; to: string | null; kind: string; id: string }[];
}

/**
 * Where an object's properties and links came from, and its latest changes: the object, its
 * property sources (by name), its links both ways (newest first) and its history (newest first),
 * each list at most PROVENANCE_LIMITS long. One round trip.
 */
export async function readProvenance(db: D1Database, organizationId: string, type: string, key: string): Promise<StoredProvenance> {
  const [objectRows, propertyRows, linkRows, historyRows] = await db.batch([
    getStatement(db, organizationId, type, key),
    db
      .prepare(
        `SELECT name, source_kind AS kind, source_id AS id, source_url AS url, updated_at AS updatedAt FROM property_sources
          WHERE organization_id = ?1 AND type = ?2 AND key = ?3 ORDER BY name LIMIT ?4`,
      )
      .bind(organizationId, type, key, PROVENANCE_LIMITS.properties),
    db
      .prepare(
        `SELECT * FROM (
           SELECT link, 1 AS forward, to_type AS type, to_key AS key, source_kind AS kind, source_id AS id, created_at AS createdAt FROM links
            WHERE organization_id = ?1 AND from_type = ?2 AND from_key = ?3
           UNION ALL
           SELECT link, 0 AS forward, from_type AS type, from_key AS key, source_kind AS kind, source_id AS id, created_at AS createdAt FROM links
            WHERE organization_id = ?1 AND to_type = ?2 AND to_key = ?3)
          ORDER BY createdAt DESC, link, key LIMIT ?4`,
      )
      .bind(organizationId, type, key, PROVENANCE_LIMITS.relationships),
    db
      .prepare(
        `SELECT at, property, from_value AS "from", to_value AS "to", source_kind AS kind, source_id AS id FROM object_history
          WHERE organization_id = ?1 AND type = ?2 AND key = ?3 ORDER BY object_history.id DESC LIMIT ?4`,
      )
      .bind(organizationId, type, key, PROVENANCE_LIMITS.history),
  ]);
  const object = (objectRows!.results as unknown as ObjectRow[])[0];
  return {
    object: object ? toObject(object) : null,
    properties: propertyRows!.results as StoredProvenance['properties'],
    relationships: (linkRows!.results as (Omit<StoredProvenance['relationships'][number], 'forward'> & { forward: number })[]).map((r) => ({
      ...r,
      forward: r.forward === 1,
    })),
    history: historyRows!.results as StoredProvenance['history'],
  };
}
