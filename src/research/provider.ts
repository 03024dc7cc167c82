import type { SalesProfile } from '../ground/schemas/profile.ts';

/** A source document as research uses and cites it. `url` is its key in the knowledge base. */
export interface ResearchSource {
  url: string;
  title: string;
  domain: string;
  /** ISO date (YYYY-MM-DD) when known. */
  publishedAt?: string;
}

/** One sentence of findings, taken verbatim from `sources[source]`. */
export interface Finding {
  sentence: string;
  /** Index into ResearchResult.sources. */
  source: number;
  /** Indexes of other sources whose text holds exactly the same sentence: the finding cites them too. */
  also?: number[];
}

export interface ResearchRequest {
  organizationId: string;
  topic: string;
  tier: 'lite' | 'base';
  sourcePolicy: { include: string[]; exclude: string[] };
  /** Soft query terms: they steer ranking without being required. */
  userContext?: string;
  profile: SalesProfile;
}

/** What an engine found: cited sentences and the sources they come from. */
export interface ResearchResult {
  findings: Finding[];
  sources: ResearchSource[];
  /** Which engine produced it, shown in the brief's meta line. */
  engine: 'embedded' | 'parallel';
  /** Full text of web sources the engine fetched, so they can join the knowledge base. */
  newSources?: { source: ResearchSource; content: string }[];
  /** A visible note for the reader (for example a fallback from the web provider). */
  note?: string;
}

/** A research engine: the embedded knowledge base, or a web research provider. */
export interface ResearchProvider {
  readonly name: 'embedded' | 'parallel';
  research(request: ResearchRequest): Promise<ResearchResult>;
}
