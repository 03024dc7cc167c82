/**
 * The research scorer's rules (the shared development scorer, ../shared/tools/score-research.py,
 * ported line for line so that the repository scores on its own): given a brief's markdown, the
 * question it answers and the corpus it was researched over,
 *
 * - faithful: every cited claim occurs verbatim in a source its [n] marks name. A claim is the text
 *   before a run of [n] marks on a line of the brief above its Sources heading (list markers
 *   removed), or, when that text quotes something of 12 characters or more, the last quotation;
 *   both sides are normalized (markdown emphasis and code marks removed, curly quotes made
 *   straight, whitespace collapsed, surrounding quotes and trailing .;:, dropped); claims under 12
 *   characters are not counted. [n] names the URL on the Sources line that starts with n.
 * - gold cited: the Sources list cites any of the question's gold URLs.
 * - facts stated: a fact is a phrase, or a list of alternative phrasings of one answer; it is
 *   stated when any of its phrasings occurs verbatim (case-sensitive) anywhere in the markdown.
 *
 * Python's regular expressions and string methods are matched exactly: its whitespace (str.isspace,
 * also what `\s` matches), its digits (`\d` is any Unicode decimal digit), its line boundaries
 * (str.splitlines) and its lengths (code points). No Node imports: the test runs it in workerd.
 */

/** One question of a corpus's questions.json. */
export interface ResearchQuestion {
  topic: string;
  /** Source URLs that state at least one of the facts. */
  gold: string[];
  facts?: Fact[];
  type?: string;
}

/** A case-sensitive phrase, or alternative phrasings of the same answer. */
export type Fact = string | string[];

/** A claim the brief cites that no source it names states verbatim. */
export interface UnfaithfulClaim {
  /** The normalized claim, at most 120 characters (code points). */
  claim: string;
  /** The numbers of its [n] marks. */
  marks: string[];
}

export interface QuestionScore {
  topic: string;
  goldCited: boolean;
  claims: number;
  faithful: number;
  unfaithful: UnfaithfulClaim[];
  facts: number;
  factsStated: number;
  factsNotStated: Fact[];
  /**
   * Whether the brief's **Answer** line states one of the facts: the sentence a reader in a hurry
   * reads first (the shared scorer credits a fact anywhere; this is Recon's own measure beside it).
   */
  answerStatesFact: boolean;
}

export interface CorpusScore {
  questions: number;
  goldCited: number;
  claims: number;
  faithful: number;
  facts: number;
  factsStated: number;
  answersStatingFact: number;
}

/** Python's whitespace: the characters str.isspace() accepts, which `\s` matches in a str pattern. */
const SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const S = `[${SPACE}]`;
const SPACE_RUN = new RegExp(`${S}+`, 'gu');
const SPACE_AT_ENDS = new RegExp(`^${S}+|${S}+$`, 'gu');
/** str.splitlines()'s line boundaries. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/u;
/** `^#+\s*Sources\s*$` with re.M | re.I: Python's ^ and $ see only \n as a line end. */
const SOURCES_HEADING = new RegExp(`(?:(?<![\\s\\S])|(?<=\\n))#+${S}*Sources${S}*(?=\\n|(?![\\s\\S]))`, 'iu');
const SOURCE_NUMBER = new RegExp(`^${S}*(?:[-*]${S}*)?\\[?(\\p{Nd}+)[\\].]`, 'u');
const SOURCE_URL = new RegExp(`https?://[^${SPACE})>\\]]+`, 'u');
const LIST_MARKER = new RegExp(`^${S}*(?:[-*]|\\p{Nd}+\\.)${S}+`, 'u');
const MARK_RUN = new RegExp(`((?:${S}*\\[\\p{Nd}+\\])+)`, 'u');
const NUMBER = /\p{Nd}+/gu;
const QUOTATION = /"([^"]{12,})"/gu;

/** Python's str.splitlines(): no empty last line for a trailing break. */
export function splitLines(text: string): string[] {
  const lines = text.split(LINE_BREAK);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

const strip = (s: string) => s.replace(SPACE_AT_ENDS, '');
const stripChars = (s: string, chars: string, left = true) => {
  let start = 0;
  let end = s.length;
  while (left && start < end && chars.includes(s[start]!)) start++;
  while (end > start && chars.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
};
const codePoints = (s: string) => [...s];

/** The scorer's `norm`: the form in which a claim and a source are compared. */
export function normalizeClaim(text: string): string {
  let s = text.replace(/[*_`]/g, '');
  s = s.replaceAll('\u201c', '"').replaceAll('\u201d', '"').replaceAll('\u2019', "'");
  s = strip(stripChars(strip(s.replace(SPACE_RUN, ' ')), '"'));
  return strip(stripChars(s, '.;:,', false));
}

/** The sources of a corpus (NDJSON of objects): key -> content, for the objects that have both. */
export function corpusContents(ndjson: string): Map<string, string> {
  const corpus = new Map<string, string>();
  for (const line of ndjson.split('\n')) {
    if (line.trim() === '') continue;
    const object = JSON.parse(line) as { key?: unknown; properties?: { content?: unknown } | null };
    const content = object.properties?.content;
    if (typeof object.key === 'string' && object.key && typeof content === 'string' && content) corpus.set(object.key, content);
  }
  return corpus;
}

/** A brief split at its Sources heading: the body, and each source number's URL. */
export function parseBrief(markdown: string): { body: string; refs: Map<string, string> } {
  const parts = markdown.split(SOURCES_HEADING);
  const [body, sources] = parts.length > 1 ? [parts[0]!, parts[1]!] : [markdown, ''];
  const refs = new Map<string, string>();
  for (const line of splitLines(sources)) {
    const number = SOURCE_NUMBER.exec(line);
    const url = SOURCE_URL.exec(line);
    if (number && url) refs.set(number[1]!, stripChars(url[0], '.,', false));
  }
  return { body, refs };
}

/** The cited claims of a brief's body, normalized, each with its marks; claims under 12 characters left out. */
export function citedClaims(body: string): { claim: string; marks: string[] }[] {
  const claims: { claim: string; marks: string[] }[] = [];
  for (const rawLine of splitLines(body)) {
    const pieces = rawLine.replace(LIST_MARKER, '').split(MARK_RUN);
    for (let i = 0; i < pieces.length - 1; i += 2) {
      const text = pieces[i]!;
      const marks = pieces[i + 1]!.match(NUMBER) ?? [];
      // A framing sentence around a quotation ("... The most relevant: "quote" [1]") cites the quotation.
      const raw = text.replaceAll('\u201c', '"').replaceAll('\u201d', '"');
      const quoted = [...raw.matchAll(QUOTATION)].map((match) => match[1]!);
      const claim = normalizeClaim(quoted.at(-1) ?? text);
      if (codePoints(claim).length < 12) continue;
      claims.push({ claim, marks });
    }
  }
  return claims;
}

/** Whether a fact (a phrase or its alternatives) occurs verbatim in the markdown. */
export function factStated(fact: Fact, markdown: string): boolean {
  return (typeof fact === 'string' ? [fact] : fact).some((phrase) => markdown.includes(phrase));
}

/** Scores one brief. `normalized` caches normalized source contents across briefs (key -> norm(content)). */
export function scoreBrief(markdown: string, question: ResearchQuestion, corpus: ReadonlyMap<string, string>, normalized = new Map<string, string>()): QuestionScore {
  const { body, refs } = parseBrief(markdown);
  const cited = new Set(refs.values());
  const facts = question.facts ?? [];
  const factsNotStated = facts.filter((fact) => !factStated(fact, markdown));
  const answerLine = /^\*\*Answer:\*\*(.*)$/m.exec(markdown)?.[1] ?? '';
  const unfaithful: UnfaithfulClaim[] = [];
  let claims = 0;
  for (const { claim, marks } of citedClaims(body)) {
    claims++;
    const ok = marks.some((mark) => {
      const url = refs.get(mark);
      const content = url === undefined ? undefined : corpus.get(url);
      if (url === undefined || content === undefined) return false;
      let source = normalized.get(url);
      if (source === undefined) normalized.set(url, (source = normalizeClaim(content)));
      return source.includes(claim);
    });
    if (!ok) unfaithful.push({ claim: codePoints(claim).slice(0, 120).join(''), marks });
  }
  return {
    topic: question.topic,
    goldCited: question.gold.some((url) => cited.has(url)),
    claims,
    faithful: claims - unfaithful.length,
    unfaithful,
    facts: facts.length,
    factsStated: facts.length - factsNotStated.length,
    factsNotStated,
    answerStatesFact: answerLine !== '' && facts.some((fact) => factStated(fact, answerLine)),
  };
}

/** The totals over a corpus's questions. */
export function totalScore(scores: readonly QuestionScore[]): CorpusScore {
  const sum = (pick: (score: QuestionScore) => number) => scores.reduce((total, score) => total + pick(score), 0);
  return {
    questions: scores.length,
    goldCited: sum((score) => (score.goldCited ? 1 : 0)),
    claims: sum((score) => score.claims),
    faithful: sum((score) => score.faithful),
    facts: sum((score) => score.facts),
    factsStated: sum((score) => score.factsStated),
    answersStatingFact: sum((score) => (score.answerStatesFact ? 1 : 0)),
  };
}

/**
 * A share as a whole percent; one decimal when rounding would show more than there is (39 of 46 is
 * 84.8%, not 85%: a target of 85% is not met) or 0% for a share that is not.
 */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '-';
  const value = (part / whole) * 100;
  const rounded = Math.round(value);
  return rounded > value || (rounded === 0 && part !== 0) ? `${value.toFixed(1)}%` : `${rounded}%`;
}

/** `<name>: faithful X/Y claims (P%), gold cited A/B questions (P%), facts stated C/D (P%), answer line states a fact E/B (P%)`. */
export function scoreLine(name: string, total: CorpusScore): string {
  return (
    `${name}: faithful ${total.faithful}/${total.claims} claims (${percent(total.faithful, total.claims)}), ` +
    `gold cited ${total.goldCited}/${total.questions} questions (${percent(total.goldCited, total.questions)}), ` +
    `facts stated ${total.factsStated}/${total.facts} (${percent(total.factsStated, total.facts)}), ` +
    `answer line states a fact ${total.answersStatingFact}/${total.questions} (${percent(total.answersStatingFact, total.questions)})`
  );
}

/** Reads a questions.json: an array of {topic, gold[], facts?[]}; throws on anything else. */
export function parseQuestions(json: string, where: string): ResearchQuestion[] {
  const data = JSON.parse(json) as unknown;
  if (!Array.isArray(data) || data.length === 0) throw new Error(`${where}: not a non-empty array of questions`);
  return data.map((entry: unknown, index) => {
    const q = entry as Partial<ResearchQuestion> | null;
    const isFact = (fact: unknown) => typeof fact === 'string' || (Array.isArray(fact) && fact.length > 0 && fact.every((p) => typeof p === 'string'));
    if (
      !q ||
      typeof q.topic !== 'string' ||
      q.topic.trim() === '' ||
      !Array.isArray(q.gold) ||
      !q.gold.every((url) => typeof url === 'string') ||
      (q.facts !== undefined && !(Array.isArray(q.facts) && q.facts.every(isFact)))
    ) {
      throw new Error(`${where}: question ${index + 1} is not {topic, gold: string[], facts?: (string | string[])[]}`);
    }
    return q as ResearchQuestion;
  });
}
