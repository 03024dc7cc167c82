/**
 * `node scripts/bench/research-replay.ts [tree]`: the CPU of a research call after retrieval (its
 * candidates from stored facts, the findings, the speakers and the brief), timed in Node on the
 * questions `npm run score:research` captured (.score-research/capture/ of this checkout), under the
 * code of `tree` (a checkout of this repository; this one by default). Run it once per tree,
 * alternating, to compare two commits on the same inputs: retrieval is not timed, so the figures
 * move only with the engine's pure part. Prints the median and p95 per call over 4 timed rounds
 * (a first round warms up).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/wrangler.ts';
import type { CorpusCapture } from '../lib/research-replay.ts';
import { summarize } from './stats.ts';

const ROUNDS = 5;
const tree = path.resolve(process.argv[2] ?? PROJECT_ROOT);
const captureDir = path.join(PROJECT_ROOT, '.score-research', 'capture');

const pipeline = (await import(path.join(tree, 'src/research/embedded-pipeline.ts'))) as typeof import('../../src/research/embedded-pipeline.ts');
const { composeBrief } = (await import(path.join(tree, 'src/research/brief.ts'))) as typeof import('../../src/research/brief.ts');
const { speakersIn } = (await import(path.join(tree, 'src/research/speakers.ts'))) as typeof import('../../src/research/speakers.ts');

const captures: CorpusCapture[] = [];
for (const name of ['demo', 'held-out', 'restaurant-workforce', 'security-awareness']) {
  try {
    captures.push((JSON.parse(await readFile(path.join(captureDir, `${name}.json`), 'utf8')) as { capture: CorpusCapture }).capture);
  } catch {
    // A corpus not captured yet is left out.
  }
}
if (captures.length === 0) {
  console.error(`No captures in ${captureDir}: run \`npm run score:research\` first.`);
  process.exit(2);
}

const times: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const capture of captures) {
    for (const { question, retrieved } of capture.questions) {
      const started = performance.now();
      const request = { topic: question.topic, tier: 'lite' as const };
      const result = { engine: 'embedded' as const, ...pipeline.extractFindings(retrieved, request, { candidates: pipeline.findingCandidates(retrieved, request) }) };
      const speakers = speakersIn(retrieved.companies, question.topic, result.sources, { ownDomain: capture.profile.domain });
      composeBrief({ topic: question.topic, tier: 'lite', date: '2000-01-01', result, profile: capture.profile, sourcePolicy: { include: [], exclude: [] }, speakers });
      if (round > 0) times.push(performance.now() - started);
    }
  }
}
const summary = summarize(times);
console.log(`${tree}: research after retrieval, ${times.length} calls: median ${summary.median.toFixed(2)} ms, p95 ${summary.p95.toFixed(2)} ms`);
