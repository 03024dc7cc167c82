import { composeBrief } from '../../src/research/brief.ts';
import type { ResearchResult } from '../../src/research/provider.ts';
import { FINISHED_PROFILE } from './fixtures.ts';

/** The **Answer** line (and the claims and markdown) of a brief composed from `findings` over `sources`. */
export function answerLine(topic: string, sources: ResearchResult['sources'], findings: ResearchResult['findings']) {
  const { markdown, claims } = composeBrief({
    topic,
    tier: 'lite',
    date: '2026-11-28',
    result: { engine: 'embedded', sources, findings },
    profile: FINISHED_PROFILE,
    sourcePolicy: { include: [], exclude: [] },
  });
  return { line: markdown.split('\n').find((l) => l.startsWith('**Answer:**'))!, claims, markdown };
}
