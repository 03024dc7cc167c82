import type { ToolAnswer } from '../../operations/definition.ts';

/**
 * How much text one tool result may carry. Clients cut larger results (Claude Code refuses tool
 * output over 25,000 tokens by default), so a tool whose answer could be longer answers its first
 * part that fits, cut at a boundary (a whole line of markdown, a whole JSON value), with a note that
 * says what was left out and where the whole is. Every tool result passes through `boundAnswer`.
 */

/** The most tokens of text one tool result carries. */
export const MAX_RESULT_TOKENS = 25_000;

/** Tokens kept free for the notes a cut answer ends with (each well under half of it). */
const NOTE_ALLOWANCE = 1_000;

/**
 * Tokens of `text`, estimated on the high side: one per 3 ASCII characters (English prose and JSON
 * run at about 4 per token) and one per other character (a CJK character can be a token of its
 * own). Additive: the tokens of two texts are the tokens of their concatenation.
 */
export function tokensOf(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) ascii++;
    // A surrogate pair is one character: count its high half only.
    else if (code < 0xdc00 || code > 0xdfff) other++;
  }
  return ascii / 3 + other;
}

/** What a tool result carries once bounded: the answer, and the note of a cut one (its own text content after the text). */
export interface BoundedAnswer extends ToolAnswer {
  note?: string;
}

/**
 * The answer as a tool result may carry it: unchanged when its text fits in `limit` tokens; else
 * cut at a boundary, never inside a line of markdown or a JSON value, with a note naming how much
 * was left out and `whole`, where the whole answer can be read.
 *
 * - A JSON answer (its text is the JSON of its structured content) keeps every field and has its
 *   longest strings shortened, each ending in a visible `… [cut: N more characters]` marker, in
 *   both the text and the structured content, which stay the same JSON.
 *   Should that not be enough (hundreds of values, each at its least), the text is that JSON one
 *   value a line, its first whole lines.
 * - Any other text keeps its first whole lines that fit; the structured content stays whole (the
 *   claims of a brief, a run's status).
 */
export function boundAnswer(answer: ToolAnswer, whole: string, limit = MAX_RESULT_TOKENS): BoundedAnswer {
  const total = tokensOf(answer.text);
  if (total <= limit) return answer;
  const budget = limit - NOTE_ALLOWANCE;
  if (answer.text === JSON.stringify(answer.structured)) {
    const shortened = shortenStrings(answer, answer.structured!, total, budget, whole);
    if (tokensOf(shortened.text) <= budget) return shortened;
    // Still too long with every string at its least (hundreds of values): the JSON one value a line, its first whole lines.
    const cut = shortened.structured === answer.structured ? '' : ' Its longest strings are shortened, each ending in "… [cut: N more characters]", in the structured content too.';
    return firstLines({ ...shortened, text: JSON.stringify(shortened.structured, null, 1) }, total, budget, whole, `The text is its JSON one value a line.${cut}`);
  }
  return firstLines(answer, total, budget, whole);
}

const count = (n: number) => Math.ceil(n).toLocaleString('en-US');

/** The first whole lines of the answer's text that fit; `about` says more of what the note shows (default: that the structured content is whole). */
function firstLines(answer: ToolAnswer, total: number, budget: number, whole: string, about?: string): BoundedAnswer {
  const lines = answer.text.split('\n');
  let kept = 0;
  let tokens = 0;
  for (const line of lines) {
    const cost = tokensOf(line) + 1 / 3;
    if (tokens + cost > budget) break;
    tokens += cost;
    kept++;
  }
  const text = lines.slice(0, kept).join('\n');
  const note =
    `[Cut: this answer is about ${count(total)} tokens, more than the ${count(MAX_RESULT_TOKENS)} a tool result carries; ` +
    `shown: its first ${count(kept)} of ${count(lines.length)} lines, whole lines only. The whole answer: ${whole}.` +
    (about ? ` ${about}` : answer.structured ? ' The structured content is whole.' : '') +
    ']';
  return { ...answer, text, note };
}

/** A string of a JSON value, in the order `stringLeaves` meets them, with its dotted path for the note (`objects.3.properties.content`). */
interface Leaf {
  path: string;
  value: string;
}

function stringLeaves(value: unknown, path: string, out: Leaf[]): void {
  if (typeof value === 'string') out.push({ path, value });
  else if (Array.isArray(value)) value.forEach((item, i) => stringLeaves(item, path ? `${path}.${i}` : `${i}`, out));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) stringLeaves(item, path ? `${path}.${key}` : key, out);
}

/** Strings at most this long are never shortened (ids, names, dates); longer ones only as far as needed, longest first. */
const KEPT_CHARS = 40;

/**
 * `value` cut to about `chars` characters, at a space when one is near, with the marker saying how
 * much is left out; whole when the marker would make it no shorter.
 */
function shorten(value: string, chars: number): string {
  if (value.length <= chars) return value;
  let end = chars;
  const space = value.lastIndexOf(' ', end);
  if (space > chars * 0.8) end = space;
  // Never split a surrogate pair.
  if (end > 0 && value.charCodeAt(end - 1) >= 0xd800 && value.charCodeAt(end - 1) <= 0xdbff) end--;
  const marker = `… [cut: ${(value.length - end).toLocaleString('en-US')} more characters]`;
  return end + marker.length < value.length ? `${value.slice(0, end)}${marker}` : value;
}

/** `value` with its strings replaced, the nth string met (in `stringLeaves` order) by `strings[n]`. */
function rebuild(value: unknown, strings: readonly string[], next = { n: 0 }): unknown {
  if (typeof value === 'string') return strings[next.n++];
  if (Array.isArray(value)) return value.map((item) => rebuild(item, strings, next));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rebuild(item, strings, next)]));
  return value;
}

function shortenStrings(answer: ToolAnswer, structured: Record<string, unknown>, total: number, budget: number, whole: string): BoundedAnswer {
  const leaves: Leaf[] = [];
  stringLeaves(structured, '', leaves);
  const long = leaves.filter((leaf) => leaf.value.length > KEPT_CHARS);
  const cost = (leaf: Leaf, chars: number) => tokensOf(JSON.stringify(shorten(leaf.value, chars)));
  // Tokens of everything but the long strings: the estimate is additive, so each cap is priced without rebuilding the JSON.
  const rest = total - long.reduce((sum, leaf) => sum + tokensOf(JSON.stringify(leaf.value)), 0);
  const fits = (chars: number) => rest + long.reduce((sum, leaf) => sum + cost(leaf, chars), 0) <= budget;
  // The largest cap on the strings' length that fits (KEPT_CHARS when none does: the least it shows).
  let low = KEPT_CHARS;
  let high = long.reduce((max, leaf) => Math.max(max, leaf.value.length), KEPT_CHARS);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  const strings = leaves.map((leaf) => shorten(leaf.value, low));
  const shortened = rebuild(structured, strings) as Record<string, unknown>;
  const named = leaves.filter((leaf, i) => strings[i] !== leaf.value);
  if (named.length === 0) return answer;
  const listed = named.slice(0, 5).map((leaf) => `${leaf.path} (${leaf.value.length.toLocaleString('en-US')} characters)`);
  const note =
    `[Cut: this answer is about ${count(total)} tokens, more than the ${count(MAX_RESULT_TOKENS)} a tool result carries; ` +
    `${named.length === 1 ? 'one string is' : `${named.length} strings are`} shortened to their first ${low.toLocaleString('en-US')} characters, ` +
    `each ending in "… [cut: N more characters]": ${listed.join(', ')}${named.length > listed.length ? `, and ${named.length - listed.length} more` : ''}. ` +
    `Every other field is whole. The whole answer: ${whole}.]`;
  return { ...answer, text: JSON.stringify(shortened), structured: shortened, note };
}

/**
 * For a page whose JSON text is over the limit: how many of its first items fit (at least one),
 * or undefined when the page fits or has one item (then `boundAnswer` shortens its strings).
 */
export function itemsThatFit(text: string, items: readonly unknown[], limit = MAX_RESULT_TOKENS): number | undefined {
  const total = tokensOf(text);
  if (total <= limit || items.length < 2) return undefined;
  const costs = items.map((item) => tokensOf(JSON.stringify(item)) + 1 / 3);
  let tokens = total - costs.reduce((sum, cost) => sum + cost, 0);
  let fit = 0;
  while (fit < items.length && tokens + costs[fit]! <= limit - NOTE_ALLOWANCE) tokens += costs[fit++]!;
  return Math.max(1, fit);
}
