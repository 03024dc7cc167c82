import { failedGuard } from '../db/guard.ts';
import {
  deleteLinkStatement,
  deleteObjectStatements,
  findObjectsAndLinks,
  insertLinkStatements,
  linkExists,
  linkExistsGuard,
  objectExistsGuard,
  objectVersion,
  objectVersionGuard,
  provenanceStatements,
  reindexPassageStatements,
  upsertObjectStatements,
  type LinkRef,
  type PropertyChange,
  type WriteSource,
} from '../db/object-writes.ts';
import { forgetCompanyDirectory } from './company-directory.ts';
import { analyzePassage, encodeFacts, FACTS_VERSION } from '../research/sentence-facts.ts';
import { splitPassages } from '../research/text.ts';
import { domainOf, type ObjectType } from './object-types.ts';
import type { Db } from '../ground/db-session.ts';

export type { WriteSource } from '../db/object-writes.ts';

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
  db: Db,
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
  const changes: PropertyChange[] = [];
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
    ...upsertObjectStatements(db, organizationId, upserts, now),
    ...provenanceStatements(db, organizationId, changes, source, now),
    ...reindexStatements(db, organizationId, reindex),
    ...insertLinkStatements(db, organizationId, newLinks, source, now),
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
  db: Db,
  organizationId: string,
  object: { type: ObjectType; key: string },
  source: WriteSource,
  now = new Date().toISOString(),
  also: readonly D1PreparedStatement[] = [],
  expect: readonly Expectation[] = [],
): Promise<void> {
  const statements = [
    ...guardStatements(db, organizationId, expect),
    ...deleteObjectStatements(db, organizationId, object, source, now),
    ...also,
  ];
  try {
    await commit(db, organizationId, statements, expect);
  } finally {
    if (object.type === 'company') forgetCompanyDirectory(organizationId);
  }
}

/** Removes one link (a missing link removes nothing), with `also` in the same batch, guarded by `expect` (see writeObjects). */
export async function deleteLink(
  db: Db,
  organizationId: string,
  link: LinkWrite,
  also: readonly D1PreparedStatement[] = [],
  expect: readonly Expectation[] = [],
): Promise<void> {
  await commit(db, organizationId, [
    ...guardStatements(db, organizationId, expect),
    deleteLinkStatement(db, organizationId, link),
    ...also,
  ], expect);
}

/** One guard per expectation, named `expect-<index>`; they go first in the batch, before anything changes. */
function guardStatements(db: Db, org: string, expect: readonly Expectation[]): D1PreparedStatement[] {
  return expect.map((e, i) => {
    const name = `expect-${i}`;
    if ('link' in e) return linkExistsGuard(db, org, e.link, e.exists, name);
    if ('version' in e) return objectVersionGuard(db, org, e.object, e.version, name);
    return objectExistsGuard(db, org, e.object, e.exists, name);
  });
}

/** Runs a write batch; when one of its expectation guards fails it, throws ExpectationFailed with what is stored now. */
async function commit(db: Db, org: string, statements: D1PreparedStatement[], expect: readonly Expectation[]): Promise<void> {
  try {
    await db.batch(statements);
  } catch (error) {
    const expectation = expect[Number(/^expect-(\d+)$/.exec(failedGuard(error) ?? '')?.[1] ?? NaN)];
    if (!expectation) throw error;
    throw new ExpectationFailed(expectation, await foundNow(db, org, expectation), { cause: error });
  }
}

async function foundNow(db: Db, org: string, e: Expectation): Promise<number | null | boolean> {
  if ('link' in e) return linkExists(db, org, e.link);
  return objectVersion(db, org, e.object);
}

function linkId(link: LinkRef): string {
  return [link.link, link.from.type, link.from.key, link.to.type, link.to.key].join('\u001f');
}

/** The stored properties of `objects` and which of `links` exist, read in one round trip. */
async function readCurrent(db: Db, organizationId: string, writes: readonly ObjectWrite[], allLinks: readonly LinkWrite[]) {
  const fresh = new Set(writes.filter((o) => o.isNew).map((o) => `${o.type}\u001f${o.key}`));
  const isFresh = (end: { type: string; key: string }) => fresh.has(`${end.type}\u001f${end.key}`);
  const objects = writes.filter((o) => !o.isNew);
  const links = allLinks.filter((l) => !isFresh(l.from) && !isFresh(l.to));
  const existing = new Map<string, Properties>();
  const existingLinks = new Set<string>();
  if (objects.length === 0 && links.length === 0) return { existing, existingLinks };
  const found = await findObjectsAndLinks(db, organizationId, objects, links);
  for (const row of found.objects) existing.set(`${row.type}\u001f${row.key}`, row.properties);
  for (const link of found.links) existingLinks.add(linkId(link));
  return { existing, existingLinks };
}

interface SourceToIndex {
  key: string;
  domain: string;
  title: string;
  publishedAt: string | null;
  content: string;
}

function reindexStatements(db: Db, org: string, sources: SourceToIndex[]) {
  if (sources.length === 0) return [];
  // Each passage is stored with the facts of its sentences (research/sentence-facts.ts), computed
  // here once rather than by every research call that reads it.
  const passages = sources.flatMap((s) =>
    splitPassages(s.content).map((text, ordinal) => ({
      sourceKey: s.key,
      domain: s.domain,
      title: s.title,
      publishedAt: s.publishedAt,
      ordinal,
      text,
      facts: encodeFacts(analyzePassage(text)),
    })),
  );
  return reindexPassageStatements(db, org, sources.map((s) => s.key), passages, FACTS_VERSION);
}
