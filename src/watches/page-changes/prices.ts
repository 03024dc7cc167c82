/**
 * Prices as data: the currency amounts of a sentence, and the price changes a page's removed and
 * added sentences hold (the same sentence with another amount), with the plan each is for.
 */

export interface PriceChange {
  plan: string;
  before: string;
  after: string;
  removed: string;
  added: string;
}

const SYMBOL = '(?:US\\$|CA\\$|C\\$|AU\\$|A\\$|NZ\\$|HK\\$|S\\$|R\\$|[$\u20ac\u00a3\u00a5\u20b9\u20a9\u20bd\u20ba\u20aa\u20ab\u0e3f\u20b4\u20a6\u20b1])';
const CODE = '(?:USD|EUR|GBP|CAD|AUD|NZD|CHF|JPY|CNY|INR|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|SGD|HKD|ILS|TRY|KRW|AED)';
/** 1,299.00 and 1.200 (thousands grouped by , . ' or a no-break space), or 49, 0.02, 12,50. */
const NUMBER = "(?:\\d{1,3}(?:[,.'\u00a0\u202f\u2009]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,4})?)";
/** Before a currency that follows, a plain space groups thousands too ("1 200 €"). */
const NUMBER_BEFORE_CURRENCY = "(?:\\d{1,3}(?:[,.' \u00a0\u202f\u2009]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,4})?)";
const MAGNITUDE = '(?:\\s?(?:thousand|million|billion|trillion|bn|[kKmMbB])\\b)?';
const SUFFIX = `(?:${SYMBOL}|kr\\b|z\u0142|K\u010d|\\b${CODE}\\b|(?:(?:US|Canadian|Australian|Singapore|Hong\\s+Kong|New\\s+Zealand)\\s+)?dollars?\\b|euros?\\b)`;
/** "$49", "USD 49", "CAD $199", or "49 €", "49 USD", "195,000 Canadian dollars"; the magnitude ("$38 million") is part of the amount. */
const AMOUNT = new RegExp(`(?:\\b${CODE}\\s?${SYMBOL}?|${SYMBOL})\\s?${NUMBER}${MAGNITUDE}|(?<![\\d.,]|\\d )${NUMBER_BEFORE_CURRENCY}${MAGNITUDE}\\s?${SUFFIX}`, 'gu');

/** Characters of a sentence read for amounts (sentences are bounded anyway). */
const MAX_SENTENCE_CHARS = 4_000;
/** Characters of the fallback plan: the sentence without its amount. */
const MAX_PLAN_CHARS = 80;
const PLACEHOLDER = '\u2022';

interface Amount {
  text: string;
  index: number;
}

/** Currency amounts in a sentence as written ("$49", "$1,299.00", "€39", "49 €", "USD 49", "$0.02/min" gives "$0.02"), in order. */
export function amountsOf(sentence: string): string[] {
  return amountMatches(sentence).map((amount) => amount.text);
}

function amountMatches(sentence: string): Amount[] {
  return [...sentence.slice(0, MAX_SENTENCE_CHARS).matchAll(AMOUNT)].map((match) => ({ text: match[0], index: match.index }));
}

/** Pairs removed and added sentences of one page that are the same once their amounts are masked, and whose amounts differ: the price change, with the plan it is for (the words naming it in the sentence: a capitalized name before the amount such as "Pro" in "Pro: $49 per seat per month" / "The Pro plan costs $49" / "Team — $99/month"; else the sentence without its amount, cut to 80 characters). Each sentence is used in at most one pair. When a sentence holds several amounts, before/after are the first amounts that differ. */
export function priceChanges(removed: readonly string[], added: readonly string[]): PriceChange[] {
  const candidates = added.map((sentence) => ({ sentence, amounts: amountMatches(sentence), shape: shapeOf(sentence), used: false }));
  const changes: PriceChange[] = [];
  for (const old of removed) {
    const oldAmounts = amountMatches(old);
    if (oldAmounts.length === 0) continue;
    const shape = shapeOf(old);
    const match = candidates.find((candidate) => !candidate.used && candidate.shape === shape && firstDifference(oldAmounts, candidate.amounts) >= 0);
    if (!match) continue;
    match.used = true;
    const at = firstDifference(oldAmounts, match.amounts);
    const [before, after] = [oldAmounts[at], match.amounts[at]];
    if (!before || !after) continue;
    changes.push({ plan: planOf(match.sentence, after), before: before.text, after: after.text, removed: old, added: match.sentence });
  }
  return changes;
}

/** The sentence with its amounts masked, spacing collapsed and case folded: what two readings must share. */
function shapeOf(sentence: string): string {
  return sentence.replace(AMOUNT, PLACEHOLDER).replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The index of the first amount written differently, or -1 (also when the counts differ, which the same shape rules out). */
function firstDifference(before: readonly Amount[], after: readonly Amount[]): number {
  if (before.length !== after.length) return -1;
  return before.findIndex((amount, index) => compact(amount.text) !== compact(after[index]?.text ?? ''));
}

function compact(amount: string): string {
  return amount.replace(/\s+/g, '');
}

/** The plan a price is for: a name just before it, else "the X plan" anywhere, else the sentence without that amount. */
function planOf(sentence: string, amount: Amount): string {
  return nameBefore(sentence.slice(0, amount.index)) ?? namedPlan(sentence) ?? withoutAmount(sentence, amount);
}

/** Lower-case words that may stand between a plan's name and its price ("is billed at", "plan costs"). */
const MAX_GAP_WORDS = 3;
const MAX_NAME_WORDS = 4;
const GAP_WORD = /^[\p{Ll}][\p{Ll}'\u2019-]*[,:]?$/u;
const SEPARATOR = /^[:\u2014\u2013\-,|\u00b7\u2022=(]+$/;
const NAME_WORD = /^\p{Lu}[\p{L}\p{N}'\u2019.&-]*[,:]?$/u;
const JOINER = /^[+&]$/;
/** Capitalized words that open sentences and never name a plan. */
const NOT_NAMES = new Set(
  'a an the our your their this that these those it its we you they all each every any most some now only just starting starts from at for on in with per and or plans plan pricing price prices billed save get pay annual annually monthly yearly'.split(' '),
);

/** "Pro" in "Pro: $49", "The Pro plan costs $49", "Team — $99", "choose Plus, at $99", "Labor + Inventory is $239". */
function nameBefore(prefix: string): string | undefined {
  const words = prefix.trim().split(/\s+/).filter(Boolean).slice(-(MAX_GAP_WORDS + 2 * MAX_NAME_WORDS + 4));
  let at = words.length - 1;
  let gap = 0;
  while (at >= 0 && (SEPARATOR.test(words[at] ?? '') || GAP_WORD.test(words[at] ?? ''))) {
    if (!SEPARATOR.test(words[at] ?? '') && ++gap > MAX_GAP_WORDS) return undefined;
    at--;
  }
  const name: string[] = [];
  while (at >= 0 && name.length < 2 * MAX_NAME_WORDS) {
    const word = words[at] ?? '';
    const joins = JOINER.test(word) && name.length > 0;
    // A comma or colon ends the name it follows: "On Essentials and Plus, Shiftlark Payroll costs $8".
    if (!joins && (!NAME_WORD.test(word) || (name.length > 0 && /[,:]$/.test(word)))) break;
    name.unshift(word.replace(/[,:]$/, ''));
    at--;
  }
  while (name.length > 0 && (NOT_NAMES.has(name[0]?.toLowerCase() ?? '') || JOINER.test(name[0] ?? ''))) name.shift();
  return name.length > 0 ? name.join(' ') : undefined;
}

const NAMED_PLAN = /(?<!\p{L})(\p{Lu}[\p{L}\p{N}'\u2019&-]*(?: \p{Lu}[\p{L}\p{N}'\u2019&-]*){0,3}) (?:plan|tier|edition|package|bundle)\b/u;

/** "Growth" in "At $39 per seat per month, the Growth plan adds…". */
function namedPlan(sentence: string): string | undefined {
  const found = NAMED_PLAN.exec(sentence)?.[1];
  if (!found) return undefined;
  const words = found.split(' ');
  while (words.length > 0 && NOT_NAMES.has(words[0]?.toLowerCase() ?? '')) words.shift();
  return words.length > 0 ? words.join(' ') : undefined;
}

function withoutAmount(sentence: string, amount: Amount): string {
  let text = sentence.slice(0, amount.index) + sentence.slice(amount.index + amount.text.length);
  text = text.replace(/\s+/g, ' ').replace(/\s+([,.;:!?/])/g, '$1').trim();
  return text.length > MAX_PLAN_CHARS ? `${text.slice(0, MAX_PLAN_CHARS - 1).trimEnd()}\u2026` : text;
}
