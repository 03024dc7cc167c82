import type { SalesProfile } from '../ground/schemas/profile.ts';
import { withoutCredentials } from '../ground/url-credentials.ts';
import { hasSearchTerms } from './fts-query.ts';
import { escapeInline, escapeUrl } from './markdown-escape.ts';
import { figures, sentenceAnswerTypes, topicAnswerTypes, topicParts, type AnswerType } from './answer-types.ts';
import type { ResearchResult, ResearchSource } from './provider.ts';
import { stems } from './sentence-facts.ts';
import { askedNames, domainLabel, isOwnDomainOf, type AskedName } from './select.ts';
import { speakerOf, type Speakers } from './speakers.ts';
import { terms } from './text.ts';

export interface BriefInput {
  topic: string;
  tier: 'lite' | 'base';
  /** YYYY-MM-DD: the brief's date (a date, not a time, so the same call renders the same brief). */
  date: string;
  result: ResearchResult;
  profile: SalesProfile;
  sourcePolicy: { include: string[]; exclude: string[] };
  /** Who says what (speakers.ts): findings are grouped by it; without it they are one list. */
  speakers?: Speakers;
  /**
   * Markdown lines the brief opens with, after its title, meta line and note (a watch's "What
   * changed since" section); the caller escapes what it quotes.
   */
  opening?: readonly string[];
}

/**
 * One line per source, in every report that cites: `[n] Title, domain, date, URL`. Everything in it
 * comes from the source, so it is escaped (markdown-escape.ts): one line, no link but the plain URL.
 * The URL is shown without credentials: source keys are stored without them, and this keeps a
 * source stored before they were (a `?token=` in its key) from showing its token in a brief.
 */
export function sourceLine(index: number, source: ResearchSource): string {
  const url = escapeUrl(withoutCredentials(source.url));
  return `[${index + 1}] ${escapeInline(source.title)}, ${escapeInline(source.domain)}, ${escapeInline(source.publishedAt ?? 'undated')}, ${url}`;
}

/**
 * A report's Sources section body: its source lines (`sourceLine`), a blank line between two, so
 * that every markdown renderer shows one source per line (CommonMark joins lines without one into
 * a paragraph) while each stays the `[n] ...` line readers and scorers parse.
 */
export function sourceLines(sources: readonly ResearchSource[]): string[] {
  return sources.flatMap((source, i) => (i === 0 ? [sourceLine(i, source)] : ['', sourceLine(i, source)]));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One statement of the brief: a sentence and every source that states it word for word (the first is the one it was chosen from). */
interface Item {
  sentence: string;
  sources: number[];
}

/** A finding's citation: its markers, then each source's domain and date (`[2][4] (globex.com, 2026-04-07; ...)`). */
function citation(item: Item, sources: readonly ResearchSource[]): string {
  const marks = item.sources.map((n) => `[${n + 1}]`).join('');
  const where = item.sources.map((n) => `${escapeInline(sources[n]!.domain)}, ${escapeInline(sources[n]!.publishedAt ?? 'undated')}`).join('; ');
  return `${marks} (${where})`;
}

/** The newest date among an item's sources ('' when none is dated), for newest-first order. */
function newest(item: Item, sources: readonly ResearchSource[]): string {
  return item.sources.map((n) => sources[n]!.publishedAt ?? '').sort().at(-1) ?? '';
}

/** Findings stating the same sentence become one item citing all their sources, in first-seen order. */
function mergeRepeated(findings: ResearchResult['findings']): Item[] {
  const items = new Map<string, Item>();
  for (const finding of findings) {
    const cited = [finding.source, ...(finding.also ?? [])];
    const known = items.get(finding.sentence);
    if (!known) {
      items.set(finding.sentence, { sentence: finding.sentence, sources: [...new Set(cited)] });
      continue;
    }
    for (const n of cited) if (!known.sources.includes(n)) known.sources.push(n);
  }
  return [...items.values()];
}

/** The words (not numbers) of a sentence, as stems: what `wordOverlap` compares. */
function wordsOf(text: string): Set<string> {
  return new Set([...stems(text)].filter((w) => !/\d/.test(w)));
}

/** Words (not numbers) shared by two sentences, as a share of all their words: 1 when they say the same thing in the same words. */
function wordOverlap(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return x.size + y.size - shared === 0 ? 0 : shared / (x.size + y.size - shared);
}

/** Sentences this alike in words, with different figures, state differing figures for the same thing. */
export const SAME_THING_OVERLAP = 0.7;

/**
 * Groups of items that state the same thing with different figures ("rated Globex 4 out of 5",
 * "rated Globex 3 out of 5"): each group two items or more, newest first.
 */
function differingFigures(items: readonly Item[], sources: readonly ResearchSource[]): Item[][] {
  const groups: Item[][] = [];
  const placed = new Set<Item>();
  // Each item's figures and words, computed once rather than once per pair.
  const figuresOf = new Map(items.map((item) => [item, figures(item.sentence)]));
  const words = new Map<Item, Set<string>>();
  const wordsOfItem = (item: Item) => {
    let found = words.get(item);
    if (!found) words.set(item, (found = wordsOf(item.sentence)));
    return found;
  };
  for (const item of items) {
    const a = figuresOf.get(item)!;
    if (placed.has(item) || a.length === 0) continue;
    const group = [item];
    for (const other of items) {
      if (other === item || placed.has(other)) continue;
      const b = figuresOf.get(other)!;
      const differ = b.length > 0 && (a.length !== b.length || a.some((f) => !b.includes(f)));
      if (differ && wordOverlap(wordsOfItem(item), wordsOfItem(other)) >= SAME_THING_OVERLAP) group.push(other);
    }
    if (group.length < 2) continue;
    for (const member of group) placed.add(member);
    groups.push(group.sort((x, y) => newest(y, sources).localeCompare(newest(x, sources))));
  }
  return groups;
}

/** A speaker group of findings: its heading and the items in it, in relevance order. */
interface Group {
  heading: string;
  items: Item[];
}

/** Findings grouped by who says them: each subject company itself (in topic order), other vendors, third parties. */
function bySpeaker(items: readonly Item[], sources: readonly ResearchSource[], speakers: Speakers | undefined): Group[] {
  if (!speakers) return [{ heading: '', items: [...items] }];
  const groups = new Map<string, Group>();
  for (const subject of speakers.subjects) {
    groups.set(subject.domain, { heading: `From ${escapeInline(subject.name)} itself (${escapeInline(subject.domain)})`, items: [] });
  }
  groups.set('vendor', { heading: speakers.subjects.length ? 'From other vendors' : 'From vendors', items: [] });
  groups.set('third-party', { heading: 'From third parties', items: [] });
  for (const item of items) {
    const speaker = speakerOf(sources[item.sources[0]!]!.domain, speakers);
    groups.get(speaker.kind === 'subject' ? speaker.subject! : speaker.kind)!.items.push(item);
  }
  return [...groups.values()].filter((group) => group.items.length > 0);
}

/**
 * Facts about the evidence itself (counts, domains, dates, who says it, where sources agree or
 * differ): the only sentences not quoted. It never quotes a finding.
 */
function summary(items: readonly Item[], answers: number, sources: readonly ResearchSource[], speakers: Speakers | undefined, differing: number): string {
  const domains = [...new Set(sources.map((s) => escapeInline(s.domain)))];
  const dates = sources.map((s) => s.publishedAt).filter((d): d is string => !!d).sort();
  const span = dates.length ? `, published ${dates[0] === dates.at(-1) ? `on ${dates[0]}` : `between ${dates[0]} and ${dates.at(-1)}`}` : '';
  // Counted as the brief shows them: the Answer line's, then the ones listed below it.
  const below = items.length - answers;
  const shown =
    answers === 0 ? plural(below, 'finding') : `${answers === 1 ? 'The answer' : `${answers} answers (one per side)`}${below ? ` and ${plural(below, 'more finding')}` : ''}`;
  const parts = [`${shown} from ${plural(sources.length, 'source')} on ${plural(domains.length, 'domain')} (${domains.join(', ')})${span}.`];
  const groups = bySpeaker(items, sources, speakers).filter((g) => g.heading);
  if (groups.length > 1 || (groups.length === 1 && groups[0]!.heading !== 'From third parties')) {
    const counts = groups.map((g) => `${g.items.length} ${g.heading.charAt(0).toLowerCase()}${g.heading.slice(1)}`);
    parts.push(`By who says it: ${counts.join(', ')}.`);
  }
  const repeated = items.filter((item) => item.sources.length > 1).length;
  if (repeated) parts.push(`${repeated === 1 ? 'One finding is' : `${repeated} findings are`} stated word for word by several sources.`);
  if (differing) parts.push(`Sources give different figures for ${differing === 1 ? 'one point' : `${differing} points`}, shown side by side, newest first.`);
  return parts.join(' ');
}

/**
 * ICP entries and competitors a sentence mentions: the entry as a whole phrase, in any case, and
 * not as the start of a longer capitalized name ("SaaS" is not mentioned by "SaaS Dispatch"). The
 * patterns are built once per profile, then tried on each sentence.
 */
function profileMatcher(profile: SalesProfile): (sentence: string) => string[] {
  const pattern = (phrase: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase.toLowerCase())}(?![\\p{L}\\p{N}])`, 'gu');
  const lists: [string[], string][] = [
    [profile.icp.industries, 'an industry you sell to'],
    [profile.icp.companySizes, 'a company size you sell to'],
    [profile.icp.regions, 'a region you sell in'],
    [profile.icp.personas, 'a persona you sell to'],
  ];
  const checks: { patterns: RegExp[]; label: string }[] = [];
  for (const [entries, what] of lists) {
    for (const entry of entries) checks.push({ patterns: [pattern(entry)], label: `**${escapeInline(entry)}** (${what})` });
  }
  for (const domain of profile.competitors) {
    checks.push({ patterns: [pattern(domain), pattern(domain.split('.')[0]!)], label: `**${domain}** (a competitor you named)` });
  }
  return (sentence) => {
    const lower = sentence.toLowerCase();
    const mentions = (regex: RegExp) => {
      for (const match of lower.matchAll(regex)) {
        if (!/^\s+\p{Lu}/u.test(sentence.slice(match.index + match[0].length))) return true;
      }
      return false;
    };
    return checks.filter((check) => check.patterns.some(mentions)).map((check) => check.label);
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function policyNote(policy: BriefInput['sourcePolicy']): string {
  const parts = [];
  if (policy.include.length) parts.push(`only ${policy.include.join(', ')}`);
  if (policy.exclude.length) parts.push(`not ${policy.exclude.join(', ')}`);
  return parts.length ? ` (sources: ${parts.join('; ')})` : '';
}

/**
 * What the **Answer** line quotes: findings that hold the kind of answer the topic asks for, never
 * a near miss; none when no finding does (the line then says so). A topic that asks for no kind
 * of answer is answered by the first finding (the engine puts first the one its answer weights
 * rank highest). For a comparison (names joined by vs, and, or: select.ts `askedNames`), one
 * finding per side, in the topic's order: the first (the most relevant) that speaks of that side
 * (names it, or is on its own domain) and holds the kind of answer asked for, whether or not it
 * opens with the name (preferring one that did put "This Globex review comes from a CIO at a
 * 2,600-person company..." before the figure asked for); a finding already quoted that names a
 * side answers for it too. For a topic that asks several things (answer-types.ts `topicParts`:
 * "Globex reviewer ratings and complaints"), one finding per part the first does not answer (the
 * engine puts its best for each part first: embedded-pipeline.ts `answerFirst`).
 */
function answerItems(items: readonly Item[], topic: string, wanted: readonly AnswerType[], sources: readonly ResearchSource[]): Item[] {
  const typed = (item: Item) => sentenceAnswerTypes(item.sentence, wanted).length > 0;
  const asked = askedNames(topic);
  if (asked.together && asked.names.length > 1) {
    const itemStems = new Map(items.map((item) => [item, [...stems(item.sentence)]]));
    const names = (item: Item, name: AskedName) => itemStems.get(item)!.includes(name.stems[0]!);
    const speaksOf = (item: Item, name: AskedName) => names(item, name) || isOwnDomainOf(name, domainLabel(sources[item.sources[0]!]!.url));
    const picks: Item[] = [];
    for (const name of asked.names) {
      if (picks.some((pick) => names(pick, name))) continue;
      const about = items.filter((item) => !picks.includes(item) && speaksOf(item, name));
      const pick = wanted.length === 0 ? about[0] : about.find(typed);
      if (pick) picks.push(pick);
    }
    if (picks.length > 0) return picks;
  }
  const first = wanted.length === 0 ? items[0] : items.find(typed);
  if (!first) return [];
  // A topic asking several things ("price and free trial length") is answered for each part the
  // first finding does not answer, by the first finding that holds what that part asks for.
  const picks = [first];
  for (const part of topicParts(topic)) {
    const answersPart = (item: Item) => sentenceAnswerTypes(item.sentence, part).length > 0;
    if (picks.some(answersPart)) continue;
    const pick = items.find((item) => !picks.includes(item) && answersPart(item));
    if (pick) picks.push(pick);
  }
  return picks;
}

/** What a kind of answer is called in the line that says the sources do not state it. */
const ANSWER_TYPE_NAMES: Record<AnswerType, string> = {
  money: 'a price or an amount',
  percent: 'a percentage',
  date: 'a date',
  duration: 'a duration',
  count: 'a number',
  headcount: 'a headcount',
  rating: 'a rating',
  weakness: 'a weakness',
  person: 'a person',
  place: 'a place',
  change: 'a change (a before and after, a rise or a fall)',
};

/** The **Answer** line when no finding holds the kind of answer asked for: said plainly, never a near miss quoted. */
function notStatedLine(wanted: readonly AnswerType[]): string {
  const kinds = wanted.map((type) => ANSWER_TYPE_NAMES[type]);
  const what = kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}` : kinds[0]!;
  return `**Answer:** Not stated. None of the sentences found gives ${what} for this topic; the closest findings follow.`;
}

/**
 * One claim of a brief as data: a sentence the brief quotes, verbatim, and every source it cites
 * for it (indexes into the result's sources; each of them holds the sentence word for word).
 */
export interface BriefClaim {
  sentence: string;
  sources: number[];
  /** True for what the brief gives as its **Answer** (one per side of a comparison). */
  answer: boolean;
}

/** A rendered brief: its markdown and the claims it quotes, in reading order (the answer first). */
export interface ComposedBrief {
  markdown: string;
  claims: BriefClaim[];
}

/** The markdown of `composeBrief`. */
export function renderBrief(input: BriefInput): string {
  return composeBrief(input).markdown;
}

/**
 * The markdown brief, shaped for a reader in a hurry: an **Answer** line (the most relevant finding
 * that holds the kind of answer the topic asks for, else the most relevant one), a summary that
 * counts, dates and says who speaks (never quoting), then the other findings grouped by who says
 * them (the company the topic names, other vendors, third parties), each cited with its sources'
 * domains and dates; a sentence stated by several sources is one finding citing them all, and
 * findings that give different figures for the same thing are shown side by side, newest first.
 * Every quoted sentence is verbatim in each source its `[n]` names.
 */
export function composeBrief(input: BriefInput): ComposedBrief {
  const { result } = input;
  const topic = escapeInline(input.topic);
  const lines = [
    `# Research brief: ${topic}`,
    '',
    `_${input.date} · tier ${input.tier} · ${plural(result.sources.length, 'source')} · ${result.engine} engine${policyNote(input.sourcePolicy)}_`,
    '',
  ];
  // A note can carry a provider's error text: escaped like any text from outside.
  if (result.note) lines.push(`> **Note:** ${escapeInline(result.note)}`, '');
  if (input.opening?.length) lines.push(...input.opening, '');

  if (result.findings.length === 0) {
    const searchable = hasSearchTerms(terms(input.topic));
    lines.push(
      '## Summary',
      '',
      searchable
        ? `Nothing in your knowledge base matches "${topic}"${policyNote(input.sourcePolicy)}. Recon states only what its sources say, so this brief has no findings.`
        : `"${topic}" has no words Recon can search for (only punctuation, symbols, one-letter words or words such as "the" and "with"), so this brief has no findings.`,
      '',
      '## How to get an answer',
      '',
      '- Add sources (saved pages, call notes, docs) with `POST /api/v1/oms/objects/import` (NDJSON, one source per line).',
      '- Or let Recon research the web: set `RESEARCH_PROVIDER=parallel` and the `PARALLEL_API_KEY` secret.',
      searchable ? '- Or try other words for the topic, or a wider source policy.' : '- Name what to research in words: a company, product, market or question, e.g. "Acme Analytics pricing".',
      '',
    );
    return { markdown: lines.join('\n'), claims: [] };
  }

  const items = mergeRepeated(result.findings);
  const wanted = topicAnswerTypes(input.topic);
  const answers = answerItems(items, input.topic, wanted, result.sources);
  const differing = differingFigures(items, result.sources);
  const apart = new Set(differing.flat());
  const rest = items.filter((item) => !answers.includes(item) && !apart.has(item));
  const groups = bySpeaker(rest, result.sources, input.speakers);
  const answerDiffers = answers.some((answer) => apart.has(answer)) ? ' Other sources give other figures: see "Where sources differ".' : '';

  const quoted = answers.map((answer) => `"${escapeInline(answer.sentence)}" ${citation(answer, result.sources)}`);
  lines.push(answers.length ? `**Answer:** ${quoted.join('; ')}${answerDiffers}` : notStatedLine(wanted), '');
  lines.push('## Summary', '', summary(items, answers.length, result.sources, input.speakers, differing.length), '');

  // Numbered in reading order; the profile section refers to these numbers.
  const numbered = new Map<Item, number>();
  let count = 0;
  if (groups.length > 0 || differing.length > 0) {
    lines.push('## Key findings', '');
    for (const group of groups) {
      if (group.heading) lines.push(`### ${group.heading}`, '');
      for (const item of group.items) {
        numbered.set(item, ++count);
        lines.push(`${count}. ${escapeInline(item.sentence)} ${citation(item, result.sources)}`);
      }
      lines.push('');
    }
    if (differing.length > 0) {
      lines.push('### Where sources differ', '');
      for (const group of differing) {
        const n = ++count;
        for (const item of group) numbered.set(item, n);
        lines.push(`${n}. Different figures for the same thing, newest first:`);
        for (const item of group) lines.push(`   - "${escapeInline(item.sentence)}" ${citation(item, result.sources)}`);
      }
      lines.push('');
    }
  }

  const related = new Map<string, string[]>();
  const profileMatches = profileMatcher(input.profile);
  for (const item of [...answers, ...items.filter((i) => !answers.includes(i))]) {
    const where = answers.includes(item) ? 'the answer' : `finding ${numbered.get(item)}`;
    for (const label of profileMatches(item.sentence)) {
      const list = related.get(label) ?? [];
      if (!list.includes(where)) list.push(where);
      related.set(label, list);
    }
  }
  if (related.size > 0) {
    lines.push('## How this relates to your sales profile', '');
    for (const [label, where] of related) lines.push(`- ${label}: ${where.join(', ')}.`);
    lines.push('');
  }

  lines.push('## Sources', '', ...sourceLines(result.sources), '');
  // Every item is quoted once in the markdown's order (an answer may be quoted again among differing figures).
  const order = [...answers, ...groups.flatMap((group) => group.items), ...differing.flat().filter((item) => !answers.includes(item))];
  const claims = order.map((item) => ({ sentence: item.sentence, sources: [...item.sources], answer: answers.includes(item) }));
  return { markdown: lines.join('\n'), claims };
}
