import type { Db } from '../ground/db-session.ts';
/**
 * Reads of OMS objects, their links, provenance and history (search, pivot, get, provenance).
 * Every statement is scoped by organization and bounded by LIMIT; every value is a bound
 * parameter. Writes go through oms/store.ts, with the statements of db/object-writes.ts.
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

function getStatement(db: Db, organizationId: string, type: string, key: string) {
  return db
    .prepare(`SELECT ${OBJECT_COLUMNS} FROM objects o WHERE o.organization_id = ?1 AND o.type = ?2 AND o.key = ?3`)
    .bind(organizationId, type, key);
}

export async function getObject(db: Db, organizationId: string, type: string, key: string): Promise<StoredObject | null> {
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

/** A position in a search's order: the sort value and the key of an object. */
export type SearchPosition = [string | number, string];

export interface ObjectSearch {
  organizationId: string;
  type: string;
  text?: SearchText;
  filters: PropertyFilter[];
  /** `key`, `updatedAt`, `createdAt` or one of INDEXED_PROPERTIES. */
  orderBy: string;
  direction: 'asc' | 'desc';
  /** The position of the last object of the previous page. */
  after?: SearchPosition;
  limit: number;
}

export interface SearchPage {
  /** At most `limit` objects, in order, with their sort values. */
  rows: { object: StoredObject; sortValue: string | number }[];
  /**
   * Where the next page starts when this one is short because SEARCH_WINDOW objects were examined
   * without filling it (more may match further on); null when every object in order was examined.
   */
  resumeAfter: SearchPosition | null;
}

const COLUMNS: Record<string, string> = { key: 'o.key', updatedAt: 'o.updated_at', createdAt: 'o.created_at' };

/**
 * The properties with an index of their own, (organization, type, value, key), as index name by
 * property. Only these (and key, createdAt, updatedAt) order a search, so that every page is read in
 * index order from its position, never by sorting the type's objects.
 */
export const INDEXED_PROPERTIES: Readonly<Record<string, string>> = {
  name: 'objects_by_name',
  domain: 'objects_by_domain',
  publishedAt: 'objects_by_published',
};

/**
 * How many objects in order one page examines at most when a condition has no index (query words,
 * contains, neq, filters on other properties). A page may then come back short, even empty, with a
 * nextPageToken: following it goes on where the examination stopped. So one search never reads more
 * than this many objects, however large the organization and however rare the match.
 */
export const SEARCH_WINDOW = 2_000;

/**
 * An indexed property as its index holds it: missing is '' (properties are never empty strings), so
 * keyset comparisons never meet NULL. The text must be exactly that of the CREATE INDEX statements.
 */
function indexedValue(name: string): string {
  return `ifnull(${propertyValue(name)}, '')`;
}

function sortExpression(orderBy: string): string {
  if (COLUMNS[orderBy]) return COLUMNS[orderBy];
  if (!INDEXED_PROPERTIES[orderBy]) throw new Error(`not an orderable property: ${orderBy}`);
  return indexedValue(orderBy);
}

const COMPARISONS: Record<Exclude<FilterOp, 'contains' | 'in'>, string> = { eq: '=', neq: 'IS NOT', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** A bound value as D1 takes it (booleans as json_extract gives them: 1 and 0). */
function bindable(value: Scalar): string | number {
  return typeof value === 'boolean' ? Number(value) : value;
}

/** Whether the filter can be read from its property's index (a range or values of it). */
function usesIndex(filter: PropertyFilter): boolean {
  return Boolean(INDEXED_PROPERTIES[filter.property]) && filter.op !== 'neq' && filter.op !== 'contains';
}

/**
 * The index a search reads, and the filter it serves: the order's own property index (with a filter
 * on that property), or in key order the index of an `eq`/`in` filter, which keeps equal values in key order.
 */
function accessPath(search: ObjectSearch): { index?: string; served?: PropertyFilter } {
  if (INDEXED_PROPERTIES[search.orderBy]) {
    return { index: INDEXED_PROPERTIES[search.orderBy], served: search.filters.find((f) => f.property === search.orderBy && usesIndex(f)) };
  }
  if (search.orderBy !== 'key') return {};
  const served = search.filters.find((f) => usesIndex(f) && (f.op === 'eq' || f.op === 'in'));
  return served ? { index: INDEXED_PROPERTIES[served.property], served } : {};
}

/**
 * One page of `type` objects matching the search, in (sort value, key) order after `after`:
 * keyset pagination from an index, never OFFSET, so a page costs the same however deep it is. The
 * conditions no index serves are tested on at most SEARCH_WINDOW objects in order (see SearchPage).
 */
export async function searchObjects(db: Db, search: ObjectSearch): Promise<SearchPage> {
  const { index, served } = accessPath(search);
  const from = `objects o${index ? ` INDEXED BY ${index}` : ''}`;
  const sort = sortExpression(search.orderBy);
  const direction = search.direction === 'desc' ? 'DESC' : 'ASC';
  const order = search.orderBy === 'key' ? `o.key ${direction}` : `${sort} ${direction}, o.key ${direction}`;

  const page = parameters(search);
  const walk = walkConditions(search, served, page.bind);
  const tests = testConditions(search, served, page.bind);
  if (tests.length === 0) {
    const { results } = await db
      .prepare(`SELECT ${OBJECT_COLUMNS}, ${sort} AS sort_value FROM ${from} WHERE ${walk} ORDER BY ${order} LIMIT ${page.bind(search.limit)}`)
      .bind(...page.values)
      .all<ObjectRow & { sort_value: string | number }>();
    return { rows: results.map((row) => ({ object: toObject(row), sortValue: row.sort_value })), resumeAfter: null };
  }

  // The window: the next SEARCH_WINDOW objects in order, read from the index alone; then the
  // objects among them that pass the tests, and the window's last position (when it was full).
  const window = (conditions: string) => `SELECT o.rowid AS id, ${sort} AS sort_value, o.key AS key FROM ${from} WHERE ${conditions} ORDER BY ${order}`;
  const end = parameters(search);
  const [matches, last] = await db.batch([
    db
      .prepare(
        `SELECT ${OBJECT_COLUMNS}, w.sort_value AS sort_value FROM (${window(walk)} LIMIT ${page.bind(SEARCH_WINDOW)}) w
           JOIN objects o ON o.rowid = w.id
          WHERE ${tests.join(' AND ')}
          ORDER BY w.sort_value ${direction}, w.key ${direction} LIMIT ${page.bind(search.limit)}`,
      )
      .bind(...page.values),
    db
      .prepare(`SELECT sort_value, key FROM (${window(walkConditions(search, served, end.bind))} LIMIT 1 OFFSET ${end.bind(SEARCH_WINDOW - 1)})`)
      .bind(...end.values),
  ]);
  const rows = (matches!.results as (ObjectRow & { sort_value: string | number })[]).map((row) => ({ object: toObject(row), sortValue: row.sort_value }));
  const edge = (last!.results as { sort_value: string | number; key: string }[])[0];
  return { rows, resumeAfter: rows.length < search.limit && edge ? [edge.sort_value, edge.key] : null };
}

/** The bound values of one statement: ?1 the organization, ?2 the type, then each `bind` in turn. */
function parameters(search: ObjectSearch) {
  const values: unknown[] = [search.organizationId, search.type];
  return { values, bind: (value: unknown) => `?${values.push(value)}` };
}

/** The conditions of the walk in index order: organization, type, position, and the filter the index serves. */
function walkConditions(search: ObjectSearch, served: PropertyFilter | undefined, bind: (value: unknown) => string): string {
  const walk = ['o.organization_id = ?1', 'o.type = ?2'];
  if (search.after) {
    const comparison = search.direction === 'desc' ? '<' : '>';
    // In key order the key alone is the position: a second, identical term would cost the index its order.
    if (search.orderBy === 'key') {
      walk.push(`o.key ${comparison} ${bind(search.after[1])}`);
    } else {
      // Spelled out rather than as a row value, which SQLite does not seek with on an expression index.
      const [value, key, sort] = [bind(search.after[0]), bind(search.after[1]), sortExpression(search.orderBy)];
      walk.push(`${sort} ${comparison}= ${value} AND (${sort} ${comparison} ${value} OR o.key ${comparison} ${key})`);
    }
  }
  if (served) walk.push(filterCondition(served, bind, indexedValue(served.property)));
  return walk.join(' AND ');
}

/** The conditions tested on each object walked: the query text and the filters no index serves. */
function testConditions(search: ObjectSearch, served: PropertyFilter | undefined, bind: (value: unknown) => string): string[] {
  const tests: string[] = [];
  const text = search.text;
  if (text?.kind === 'passages') {
    tests.push(
      `o.key IN (SELECT p.source_key FROM passages p WHERE p.organization_id = ?1
                  AND p.id IN (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ${bind(text.match)}))`,
    );
  } else if (text?.kind === 'words') {
    for (const word of text.words) {
      const placeholder = bind(word);
      tests.push(`(${text.properties.map((name) => `instr(lower(ifnull(${propertyValue(name)}, '')), ${placeholder}) > 0`).join(' OR ')})`);
    }
  }
  for (const filter of search.filters) {
    if (filter !== served) tests.push(filterCondition(filter, bind));
  }
  return tests;
}

/** The SQL of one filter; `value` is the property's SQL (an indexed property's index expression when the index serves it). */
function filterCondition(filter: PropertyFilter, bind: (value: unknown) => string, value = propertyValue(filter.property)): string {
  if (filter.op === 'contains') return `instr(lower(${value}), lower(${bind(String(filter.value))})) > 0`;
  const condition =
    filter.op === 'in'
      ? `${value} IN (SELECT value FROM json_each(${bind(JSON.stringify((filter.value as Scalar[]).map(bindable)))}))`
      : `${value} ${COMPARISONS[filter.op]} ${bind(bindable(filter.value as Scalar))}`;
  // In the index a missing property is '', which sorts before every text and after every number.
  return value === propertyValue(filter.property) ? condition : `${condition} AND ${value} <> ''`;
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
export async function pivotObjects(db: Db, query: PivotQuery): Promise<{ origin: StoredObject | null; objects: StoredObject[] }> {
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
export async function readProvenance(db: Db, organizationId: string, type: string, key: string): Promise<StoredProvenance> {
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
