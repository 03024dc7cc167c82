/**
 * The honest measure of a fitted ranking (issue 34, "Measured the honest way"): for each corpus in
 * turn, fit the weights on all the other corpora (from the prior, ranking.ts PRIOR_RANKING, which
 * no fit has seen) and score the one left out with them. Replayed offline (research-replay.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIOR_RANKING, type Ranking } from '../../src/research/ranking.ts';
import { fitWeights, type FitOptions } from './ranking-fit.ts';
import { prepareCorpus, replayScores, replayTotal, type CorpusCapture, type PreparedCorpus } from './research-replay.ts';
import { corpusContents, type CorpusScore } from './research-score.ts';

/** Where score:research leaves its captures, for `npm run fit:research`. */
export const CAPTURE_DIR = path.join('.score-research', 'capture');

/** A capture on disk: the capture and the corpus file it scores against (relative to the project). */
interface CaptureFile {
  corpusFile: string;
  capture: CorpusCapture;
}

export async function saveCapture(root: string, corpusFile: string, capture: CorpusCapture): Promise<void> {
  const dir = path.join(root, CAPTURE_DIR);
  await mkdir(dir, { recursive: true });
  const file: CaptureFile = { corpusFile: path.relative(root, corpusFile), capture };
  await writeFile(path.join(dir, `${capture.name}.json`), JSON.stringify(file));
}

/** Reads a saved capture and prepares it for replay. */
export async function loadCapture(root: string, name: string): Promise<PreparedCorpus> {
  const file = JSON.parse(await readFile(path.join(root, CAPTURE_DIR, `${name}.json`), 'utf8')) as CaptureFile;
  return prepareCorpus(file.capture, corpusContents(await readFile(path.join(root, file.corpusFile), 'utf8')));
}

/** A corpus scored by weights fitted without it. */
export interface HeldOutScore {
  name: string;
  total: CorpusScore;
  weights: Ranking;
}

/** For each corpus, the weights fitted on the others and the score they give it. */
export function leaveOneCorpusOut(corpora: readonly PreparedCorpus[], log: (line: string) => void = () => undefined, fitOptions: Omit<FitOptions, 'log'> = {}): HeldOutScore[] {
  return corpora.map((heldOut) => {
    const others = corpora.filter((corpus) => corpus !== heldOut);
    const fit = fitWeights(others, PRIOR_RANKING, fitOptions);
    log(`  without ${heldOut.capture.name}: fitted on ${others.map((c) => c.capture.name).join(', ')} in ${fit.evaluations} evaluations (objective ${fit.start.toFixed(4)} -> ${fit.objective.toFixed(4)})`);
    return { name: heldOut.capture.name, total: replayTotal(heldOut, fit.weights), weights: fit.weights };
  });
}

/**
 * Questions whose replayed brief under `weights` states other facts than the Worker's brief did:
 * 0 when the replay is the Worker's research call, as it must be.
 */
export function replayDisagreements(corpus: PreparedCorpus, weights: Ranking, workerFactsStated: readonly number[], workerAnswers: readonly boolean[]): string[] {
  const replayed = replayScores(corpus, weights);
  return replayed.flatMap((score, i) => (score.factsStated !== workerFactsStated[i] || score.answerStatesFact !== workerAnswers[i] ? [score.topic] : []));
}
