/**
 * `npm run fit:research`: fits the research ranking's weights (src/research/ranking.ts) on every
 * development corpus and writes them to src/research/ranking-weights.ts (issue 34).
 *
 * It reads the captures `npm run score:research` leaves in .score-research/capture/ (what the
 * engine retrieved for each question; retrieval does not depend on the weights), fits by
 * steepest ascent from the prior weights (scripts/lib/ranking-fit.ts), and prints each corpus's
 * score before and after, replayed offline (scripts/lib/research-replay.ts). Run score:research
 * again afterwards: it scores the new weights through the Worker, and its leave-one-corpus-out
 * line is the figure to quote.
 */
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIOR_RANKING, RANKING_PARTS, WEIGHT_NAMES, type Ranking } from '../src/research/ranking.ts';
import { fitWeights } from './lib/ranking-fit.ts';
import { CAPTURE_DIR, loadCapture } from './lib/leave-one-out.ts';
import { replayTotal, type PreparedCorpus } from './lib/research-replay.ts';
import { scoreLine } from './lib/research-score.ts';
import { PROJECT_ROOT } from './lib/wrangler.ts';

const WEIGHTS_FILE = path.join(PROJECT_ROOT, 'src', 'research', 'ranking-weights.ts');

function capturedCorpora(): string[] {
  const dir = path.join(PROJECT_ROOT, CAPTURE_DIR);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((file) => file.endsWith('.json')).map((file) => file.slice(0, -'.json'.length));
  } catch {
    // No captures yet: said below.
  }
  return names.sort();
}

function weightsSource(ranking: Ranking, corpora: readonly PreparedCorpus[], objective: { start: number; end: number }): string {
  const lines = RANKING_PARTS.flatMap((part) => [`  ${part}: {`, ...WEIGHT_NAMES.map((name) => `    ${name}: ${ranking[part][name]},`), '  },']);
  return `import type { Ranking } from './ranking.ts';

/**
 * The research ranking's weights (ranking.ts), fitted by \`npm run score:research && npm run fit:research\`
 * (scripts/fit-research.ts) on the corpora ${corpora.map((c) => c.capture.name).join(', ')}: steepest ascent
 * from PRIOR_RANKING, objective ${objective.start.toFixed(4)} -> ${objective.end.toFixed(4)} (scripts/lib/ranking-fit.ts).
 * Written by the script; do not edit by hand.
 */
export const FITTED_RANKING: Ranking = {
${lines.join('\n')}
};
`;
}

async function main(): Promise<number> {
  const names = capturedCorpora();
  if (names.length === 0) {
    console.error(`No captures in ${CAPTURE_DIR}/: run \`npm run score:research\` first (without --corpus or --hold).`);
    return 2;
  }
  const corpora = await Promise.all(names.map((name) => loadCapture(PROJECT_ROOT, name)));
  console.log(`Fitting on ${names.join(', ')} (${corpora.reduce((n, c) => n + c.capture.questions.length, 0)} questions), from the prior weights:`);
  const started = performance.now();
  const fit = fitWeights(corpora, PRIOR_RANKING, { log: console.log });
  console.log(`${fit.evaluations} evaluations in ${((performance.now() - started) / 1000).toFixed(0)} s; objective ${fit.start.toFixed(4)} -> ${fit.objective.toFixed(4)}.`);
  for (const corpus of corpora) {
    console.log(scoreLine(`${corpus.capture.name} (prior)`, replayTotal(corpus, PRIOR_RANKING)));
    console.log(scoreLine(`${corpus.capture.name} (fitted)`, replayTotal(corpus, fit.weights)));
  }
  await writeFile(WEIGHTS_FILE, weightsSource(fit.weights, corpora, { start: fit.start, end: fit.objective }));
  console.log(`Wrote ${path.relative(PROJECT_ROOT, WEIGHTS_FILE)}. Run \`npm run score:research\` to score it through the Worker.`);
  return 0;
}

process.exit(await main());
