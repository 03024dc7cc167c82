import { chooseSentences, type RankedPassage, type SelectedSentence, type SelectionOptions } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

/**
 * Selection over the passages' texts: `chooseSentences` over facts computed on the spot, each
 * sentence keyed by its own text, and the chosen sentences cut out of their passages. Research runs
 * the same choice over stored facts (embedded-engine.ts); tests state what selection picks in text.
 */
export function selectSentences(
  passages: readonly RankedPassage[],
  query: string,
  context: string | undefined,
  options: SelectionOptions,
): SelectedSentence[] {
  const analyzed = passages.map((p) => ({ sourceKey: p.sourceKey, title: p.title, score: p.score, text: p.text, sentences: analyzePassage(p.text, (sentence) => sentence) }));
  return chooseSentences(analyzed, query, context, options).map(({ key: _key, refs, ...chosen }) => {
    const { passage, sentence } = refs.get(chosen.sourceKey)!;
    return { sentence: passages[passage]!.text.slice(sentence.start, sentence.end), ...chosen };
  });
}
