/**
 * `node scripts/bench/sentence-facts.ts [-- options]`: what `analyzePassage` (src/research/sentence-facts.ts)
 * costs per passage, against the frozen copy of it from before its speed-up (test/research/reference/),
 * on the same passages in the same process. The import runs it once per passage it stores
 * (src/oms/store.ts), so a site read pays it for every passage of every page.
 *
 * Passages, cut as the import cuts them (splitPassages):
 *   demo         the demo market (scripts/seed/knowledge-base/demo.ndjson): hand-written page text
 *   demo-typo    the same with typographic quotes and dashes (’ “ ” –), as most web pages have them:
 *                text that is not ASCII takes the NFKC path of `terms`
 *   synthetic    `--sources` (1000) sources of the research bench's corpus (corpus.ts generateSources)
 *
 * First every passage's facts are checked equal (encodeFacts) under both; any difference is printed
 * and makes the exit code 1. Then `--rounds` (30) rounds, after `--warmup` (5), each timing every
 * passage once with the reference and once with the current code (the two alternate, so both see the
 * same machine and the same warm stem cache): median and p95 per passage, in microseconds. Then the
 * same for the parts (sentenceSpans, isCitable, terms, stems, sentenceAnswerTypes, figures,
 * informativeness, sentenceKey) over every sentence of the demo passages, per passage; and `stem`
 * of words it has not seen (the Porter stemmer itself, as in an isolate whose stem cache is cold):
 * the demo's words behind a prefix of the round's own, per word.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as current from '../../src/research/sentence-facts.ts';
import * as currentText from '../../src/research/text.ts';
import * as currentAnswers from '../../src/research/answer-types.ts';
import * as reference from '../../test/research/reference/sentence-facts.ts';
import * as referenceText from '../../test/research/reference/text.ts';
import * as referenceAnswers from '../../test/research/reference/answer-types.ts';
import * as currentStem from '../../src/research/stem.ts';
import * as referenceStem from '../../test/research/reference/stem.ts';
import { generateSources } from './corpus.ts';
import { median, percentile } from './stats.ts';

const { values: options } = parseArgs({
  options: {
    sources: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
  },
});
const rounds = Number(options.rounds);
const warmup = Number(options.warmup);

const demoPath = fileURLToPath(new URL('../seed/knowledge-base/demo.ndjson', import.meta.url));
const demoContents = readFileSync(demoPath, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { type?: string; properties?: { content?: string } })
  .filter((line) => line.type === 'source' && line.properties?.content)
  .map((line) => line.properties!.content!);
const typographic = (text: string) => text.replace(/(\w)'(\w)/g, '$1’$2').replace(/"([^"\n]*)"/g, '“$1”').replace(/ - /g, ' – ');

const corpora: Record<string, string[]> = {
  demo: demoContents.flatMap((content) => currentText.splitPassages(content)),
  'demo-typo': demoContents.flatMap((content) => currentText.splitPassages(typographic(content))),
  synthetic: [...generateSources(Number(options.sources))].flatMap((source) => currentText.splitPassages(source.properties.content)),
};

let failures = 0;
for (const [name, passages] of Object.entries(corpora)) {
  for (const text of passages) {
    const want = reference.encodeFacts(reference.analyzePassage(text));
    const got = current.encodeFacts(current.analyzePassage(text));
    if (got !== want) {
      failures++;
      if (failures <= 5) console.log(`DIFFERENT facts (${name}):\n  text      ${JSON.stringify(text)}\n  reference ${want}\n  current   ${got}`);
    }
  }
}
console.log(failures === 0 ? 'facts: identical on every passage' : `facts: ${failures} passages differ`);

const us = (ms: number) => (ms * 1000).toFixed(1).padStart(8);
let sink = 0;

/** Times `run` on each item once per round, reference and current alternating; samples in ms. */
function measure<T>(items: readonly T[], runs: { reference: (item: T) => unknown; current: (item: T) => unknown }) {
  const samples = { reference: [] as number[], current: [] as number[] };
  for (let round = 0; round < warmup + rounds; round++) {
    const order = round % 2 === 0 ? (['reference', 'current'] as const) : (['current', 'reference'] as const);
    for (const which of order) {
      const run = runs[which];
      for (const item of items) {
        const t0 = performance.now();
        const out = run(item);
        const elapsed = performance.now() - t0;
        if (out) sink++;
        if (round >= warmup) samples[which].push(elapsed);
      }
    }
  }
  return samples;
}

function row(label: string, samples: { reference: number[]; current: number[] }) {
  const [rm, rp, cm, cp] = [median(samples.reference), percentile(samples.reference, 95), median(samples.current), percentile(samples.current, 95)];
  console.log(`${label.padEnd(22)}${us(rm)}${us(rp)}${us(cm)}${us(cp)}   ${(rm / cm).toFixed(2)}x`);
}

console.log(`\nanalyzePassage per passage, µs (${rounds} rounds after ${warmup} warm-up)`);
console.log(`${''.padEnd(22)}${'ref med'.padStart(8)}${'ref p95'.padStart(8)}${'new med'.padStart(8)}${'new p95'.padStart(8)}   speed-up`);
for (const [name, passages] of Object.entries(corpora)) {
  row(`${name} (${passages.length})`, measure(passages, { reference: (t) => reference.analyzePassage(t), current: (t) => current.analyzePassage(t) }));
}

// The parts, per passage: each over the sentences of a demo passage (the citable ones where
// analyzePassage only reaches those).
const demo = corpora.demo!;
const sentencesOf = demo.map((text) => currentText.splitSentences(text));
const citableOf = sentencesOf.map((sentences) => sentences.filter((s) => currentText.isCitable(s)));
const each =
  <R>(fn: (sentence: string) => R) =>
  (sentences: readonly string[]) => {
    let n = 0;
    for (const s of sentences) if (fn(s)) n++;
    return n;
  };
console.log(`\nparts, per demo passage, µs`);
console.log(`${''.padEnd(22)}${'ref med'.padStart(8)}${'ref p95'.padStart(8)}${'new med'.padStart(8)}${'new p95'.padStart(8)}   speed-up`);
row('sentenceSpans', measure(demo, { reference: (t) => referenceText.sentenceSpans(t), current: (t) => currentText.sentenceSpans(t) }));
row('isCitable', measure(sentencesOf, { reference: each(referenceText.isCitable), current: each(currentText.isCitable) }));
row('terms', measure(citableOf, { reference: each(referenceText.terms), current: each(currentText.terms) }));
row('stems', measure(citableOf, { reference: each(reference.stems), current: each(current.stems) }));
row('sentenceAnswerTypes', measure(citableOf, { reference: each((s) => referenceAnswers.sentenceAnswerTypes(s)), current: each((s) => currentAnswers.sentenceAnswerTypes(s)) }));
row('figures', measure(citableOf, { reference: each(referenceAnswers.figures), current: each(currentAnswers.figures) }));
row('informativeness', measure(citableOf, { reference: each(reference.informativeness), current: each(current.informativeness) }));
row('sentenceKey', measure(citableOf, { reference: each(reference.sentenceKey), current: each(current.sentenceKey) }));

const demoWords = [...new Set(demo.flatMap((text) => currentText.terms(text)))].filter((word) => /^[a-z]+$/.test(word));
let prefixRound = 0;
const coldWords = () => {
  // A prefix of letters no round has used, so neither stem cache has seen these words.
  let prefix = '';
  for (let n = ++prefixRound; n > 0; n = Math.floor(n / 26)) prefix += String.fromCharCode(97 + (n % 26));
  return demoWords.map((word) => `${prefix}${word}`);
};
const cold = { reference: [] as number[], current: [] as number[] };
for (let round = 0; round < warmup + rounds; round++) {
  for (const which of round % 2 === 0 ? (['reference', 'current'] as const) : (['current', 'reference'] as const)) {
    const stem = which === 'reference' ? referenceStem.stem : currentStem.stem;
    const words = coldWords();
    const t0 = performance.now();
    for (const word of words) sink += stem(word).length;
    if (round >= warmup) cold[which].push(((performance.now() - t0) / words.length) * 1000);
  }
}
console.log(`\nstem of an unseen word, ns (${demoWords.length} words a round)`);
console.log(`${''.padEnd(22)}${'ref med'.padStart(8)}${'ref p95'.padStart(8)}${'new med'.padStart(8)}${'new p95'.padStart(8)}   speed-up`);
row('stem (cold cache)', cold);
if (sink < 0) console.log(sink);
process.exitCode = failures === 0 ? 0 : 1;
