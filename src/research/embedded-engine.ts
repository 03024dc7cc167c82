import type { ResearchProvider, ResearchRequest, ResearchResult } from './provider.ts';
import { extractFindings, retrieve } from './embedded-pipeline.ts';
import { asD1Database, type Db } from '../ground/db-session.ts';

/**
 * The default engine: BM25 over the organization's own sources (FTS5 in D1), then extractive
 * sentence selection. Needs nothing outside the Worker. One D1 round trip: one statement finds the
 * passages with their text and their sentences' stored facts (search.ts `findTopicPassages`);
 * selection runs on the facts under the fitted ranking (select.ts, ranking.ts), and the chosen
 * sentences are cut out of the text (embedded-pipeline.ts).
 */
export class EmbeddedEngine implements ResearchProvider {
  readonly name = 'embedded' as const;
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async research(request: ResearchRequest): Promise<ResearchResult> {
    const retrieved = await retrieve(asD1Database(this.db), request);
    return { engine: this.name, ...extractFindings(retrieved, request) };
  }
}
