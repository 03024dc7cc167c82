import { writeObjects, type LinkWrite, type ObjectWrite, type WriteResult, type WriteSource } from '../oms/store.ts';
import type { ResearchResult } from './provider.ts';
import type { Db } from '../ground/db-session.ts';

/** A rendered brief to store: what it is about and what it cites. */
export interface BriefToStore {
  /** The brief's key: the id of the research call or watch execution that wrote it (a random id, so new). */
  key: string;
  topic: string;
  tier: 'lite' | 'base';
  markdown: string;
  createdAt: string;
  result: ResearchResult;
  /** Keys of the companies it is `about`. */
  about: readonly string[];
}

/** More to commit in the brief's own batch: objects to write beside it, and statements. */
export interface AlongWithBrief {
  objects?: readonly ObjectWrite[];
  also?: readonly D1PreparedStatement[];
}

/**
 * Stores a brief as a `brief` object linked `cites` to its sources and `about` its companies, with
 * `source` as provenance. Web sources the engine fetched join the knowledge base first (their own
 * batch: knowledge, whatever becomes of the brief); the brief, its links and `along` then commit
 * in one D1 batch, all of it or none.
 */
export async function storeBrief(db: Db, organizationId: string, brief: BriefToStore, source: WriteSource, along: AlongWithBrief = {}): Promise<WriteResult> {
  const { result } = brief;
  if (result.newSources?.length) {
    const writes: ObjectWrite[] = result.newSources.map(({ source: s, content }) => ({
      type: 'source',
      key: s.url,
      properties: { title: s.title, content, ...(s.publishedAt ? { publishedAt: s.publishedAt } : {}) },
    }));
    await writeObjects(db, organizationId, writes, [], source);
  }
  const from = { type: 'brief' as const, key: brief.key };
  const links: LinkWrite[] = [
    ...result.sources.map((s): LinkWrite => ({ link: 'cites', from, to: { type: 'source', key: s.url } })),
    ...brief.about.map((company): LinkWrite => ({ link: 'about', from, to: { type: 'company', key: company } })),
  ];
  const object: ObjectWrite = {
    type: 'brief',
    key: brief.key,
    isNew: true,
    properties: { topic: brief.topic, markdown: brief.markdown, createdAt: brief.createdAt, tier: brief.tier, engine: result.engine },
  };
  return writeObjects(db, organizationId, [object, ...(along.objects ?? [])], links, source, brief.createdAt, along.also ?? []);
}
