/**
 * Research replayed offline, for fitting and scoring the ranking (issue 34): what the embedded
 * engine retrieved for each question is captured once from the real D1 state (the passages about
 * the topic, the organization's companies), then the rest of a research call, which does no I/O,
 * runs here in Node under any ranking's weights: the engine's own `extractFindings`, `speakersIn`
 * and `composeBrief`, scored with the scorer's own `scoreBrief`. Retrieval does not depend on the
 * weights, so a replayed brief is the brief the Worker would write under them;
 * scripts/score-research.ts checks that on every question under the fitted weights.
 */
import type { Retrieved } from '../../src/research/embedded-pipeline.ts';
import { extractFindings, findingCandidates, retrieve } from '../../src/research/embedded-pipeline.ts';
import { composeBrief } from '../../src/research/brief.ts';
import type { ResearchResult } from '../../src/research/provider.ts';
import type { Ranking } from '../../src/research/ranking.ts';
import type { Candidate } from '../../src/research/select.ts';
import { speakersIn } from '../../src/research/speakers.ts';
import { readSalesProfile } from '../../src/db/sales-profiles.ts';
import type { SalesProfile } from '../../src/ground/schemas/profile.ts';
import { scoreBrief, totalScore, type CorpusScore, type QuestionScore, type ResearchQuestion } from './research-score.ts';

/** The tier score:research asks in (the default). */
const TIER = 'lite';
const NO_POLICY = { include: [], exclude: [] };

/** One question and what the engine retrieved for it. */
export interface CapturedQuestion {
  question: ResearchQuestion;
  retrieved: Retrieved;
}

/** A corpus's questions as captured: enough to replay every research call on it. */
export interface CorpusCapture {
  name: string;
  profile: SalesProfile;
  questions: CapturedQuestion[];
}

/** A capture ready to replay: its sources' texts for scoring and each question's candidates, computed once. */
export interface PreparedCorpus {
  capture: CorpusCapture;
  contents: ReadonlyMap<string, string>;
  normalized: Map<string, string>;
  candidates: Candidate[][];
  /**
   * Per question, the score of each engine result seen so far, by the result as JSON. The brief is
   * a function of the result, and most moves of a fit leave most questions' results as they were,
   * so a fit composes and scores each distinct brief once.
   */
  scored: Map<string, QuestionScore>[];
}

/** The organization behind a slug, and its sales profile. */
async function organizationOf(db: D1Database, slug: string): Promise<{ id: string; profile: SalesProfile }> {
  const row = await db.prepare('SELECT id FROM organizations WHERE slug = ?').bind(slug).first<{ id: string }>();
  if (!row) throw new Error(`no organization "${slug}" in the scored state`);
  const stored = await readSalesProfile(db, row.id);
  if (!stored) throw new Error(`organization "${slug}" has no sales profile`);
  return { id: row.id, profile: stored.profile };
}

/** Captures what the engine retrieves for each question of a corpus, from the organization `slug`'s data in `db`. */
export async function captureCorpus(db: D1Database, name: string, slug: string, questions: readonly ResearchQuestion[]): Promise<CorpusCapture> {
  const organization = await organizationOf(db, slug);
  const captured: CapturedQuestion[] = [];
  for (const question of questions) {
    const request = { organizationId: organization.id, topic: question.topic, tier: TIER, sourcePolicy: NO_POLICY } as const;
    captured.push({ question, retrieved: await retrieve(db, request) });
  }
  return { name, profile: organization.profile, questions: captured };
}

/** A capture with its corpus's source texts, each question's candidates computed. */
export function prepareCorpus(capture: CorpusCapture, contents: ReadonlyMap<string, string>): PreparedCorpus {
  const candidates = capture.questions.map(({ question, retrieved }) => findingCandidates(retrieved, { topic: question.topic }));
  return { capture, contents, normalized: new Map(), candidates, scored: capture.questions.map(() => new Map()) };
}

/** What the engine finds for question `index` of a corpus under `ranking`. */
function replayResult(corpus: PreparedCorpus, index: number, ranking: Ranking): ResearchResult {
  const { question, retrieved } = corpus.capture.questions[index]!;
  return { engine: 'embedded', ...extractFindings(retrieved, { topic: question.topic, tier: TIER }, { ranking, candidates: corpus.candidates[index] }) };
}

/** The brief the Worker writes for question `index` of a corpus from `result` (dated 2000-01-01: the date is not scored). */
function briefOf(corpus: PreparedCorpus, index: number, result: ResearchResult): string {
  const { question, retrieved } = corpus.capture.questions[index]!;
  const topic = question.topic;
  const { profile } = corpus.capture;
  const speakers = speakersIn(retrieved.companies, topic, result.sources, { ownDomain: profile.domain });
  return composeBrief({ topic, tier: TIER, date: '2000-01-01', result, profile, sourcePolicy: NO_POLICY, speakers }).markdown;
}

/** The brief the Worker would write for question `index` of a corpus under `ranking` (dated 2000-01-01: the date is not scored). */
export function replayBrief(corpus: PreparedCorpus, index: number, ranking: Ranking): string {
  return briefOf(corpus, index, replayResult(corpus, index, ranking));
}

/** Every question of a corpus replayed under `ranking` and scored. */
export function replayScores(corpus: PreparedCorpus, ranking: Ranking): QuestionScore[] {
  return corpus.capture.questions.map(({ question }, i) => {
    const result = replayResult(corpus, i, ranking);
    const key = JSON.stringify(result);
    let score = corpus.scored[i]!.get(key);
    if (!score) corpus.scored[i]!.set(key, (score = scoreBrief(briefOf(corpus, i, result), question, corpus.contents, corpus.normalized)));
    return score;
  });
}

/** `replayScores`, totalled. */
export function replayTotal(corpus: PreparedCorpus, ranking: Ranking): CorpusScore {
  return totalScore(replayScores(corpus, ranking));
}
