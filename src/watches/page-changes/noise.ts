/**
 * What changes on a page from one reading to the next without meaning anything: today's date, a
 * clock, "3 days ago", the copyright year, live counters, random tokens, cache-busting query strings
 * and "last updated" stamps. Each rule masks its noise with a placeholder, so two readings of a
 * sentence that differ only there compare equal, while anything else in the sentence still counts.
 *
 * What the rules leave alone on purpose, because a change there is news: prices and currency
 * amounts, plan limits ("up to 10 seats"), bare years ("Series B in 2024", "Acme 2026"), version
 * numbers (v2.3.1, 2.3.10) and counts of customers, teams or employees ("Trusted by 4,000 teams").
 *
 * Every expression here runs in linear time: no quantifier inside a repeated group, except groups
 * repeated a bounded number of times whose parts cannot take each other's characters.
 */

export interface NoiseRule {
  name: string;
  /** What it masks, for docs. */
  description: string;
  mask(sentence: string): string;
}

/** What a masked stretch becomes (as in src/ground/ignore-patterns.ts). */
const PLACEHOLDER = '\u2022';

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\b\\.?';
const WEEKDAY = '(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\\b\\.?';
const DAY = '\\d{1,2}(?:st|nd|rd|th)?';
/** 1800 to 2999: four digits alone are a year only next to a month or a day. */
const YEAR = '(?:1[89]|2\\d)\\d{2}';

const ISO_DATE = new RegExp(`\\b${YEAR}([-/.])\\d{1,2}\\1\\d{1,2}(?:T\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?(?!\\w|\\.\\d)`, 'g');
/** 27/11/2026, 11/27/2026, 27.11.2026, 27-11-26; checked as a date by `numericDate`. */
const NUMERIC_DATE = /(?<![\w.,/-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\w/-]|[.,]\d)/g;
const MONTH_FIRST = new RegExp(`\\b(?:${WEEKDAY},?\\s+)?${MONTH}\\s+${DAY}\\b(?:,?\\s+${YEAR}\\b)?`, 'gi');
const DAY_FIRST = new RegExp(`\\b(?:${WEEKDAY},?\\s+)?${DAY}(?:\\s+of)?\\s+${MONTH}(?:,?\\s+${YEAR}\\b)?`, 'gi');
const MONTH_YEAR = new RegExp(`\\b${MONTH},?\\s+${YEAR}\\b`, 'gi');

/** am/pm: "AM", "pm", or "p.m." (whose last dot is its own, not the sentence's). */
const MERIDIEM = '(?:[aApP][mM]\\b|[aApP]\\.[mM]\\.)';
const TIME = new RegExp(
  `\\b\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,6})?)?(?:\\s?${MERIDIEM})?(?:\\s?(?:UTC|GMT|utc|gmt|Z)\\b(?:\\s?[+-]\\d{1,2}(?::?\\d{2})?)?|\\s?[+-]\\d{2}:?\\d{2}\\b|\\s[A-Z]{1,4}T\\b)?|\\b\\d{1,2}\\s?${MERIDIEM}`,
  'g',
);

const QUANTITY = '(?:\\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\\s+few|few|several|some)';
const UNIT = '(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mos?|months?|y|yrs?|years?)';
const RELATIVE = new RegExp(`\\b${QUANTITY}\\s?${UNIT}\\s+ago\\b|\\b(?:yesterday|today|tonight|just\\s+now|moments?\\s+ago|a\\s+moment\\s+ago|right\\s+now)\\b`, 'gi');

const COPYRIGHT = new RegExp(
  `(?:\u00a9|\\bcopyright\\b)(?:\\s*\u00a9)?(?:\\s*${YEAR}(?:\\s*[-\u2013\u2014]\\s*(?:${YEAR}|present\\b))?)?|\\(c\\)\\s*${YEAR}(?:\\s*[-\u2013\u2014]\\s*${YEAR})?|\\b${YEAR}(?:\\s*[-\u2013\u2014]\\s*${YEAR})?\\s*(?:\u00a9|\\(c\\))`,
  'gi',
);

/** What a live counter counts; "online" only when no noun follows it ("4,000 online stores" is not a counter). */
const COUNTED = '(?:visitors?|visits|views?|viewers|viewing|online(?:\\s+now)?(?!\\s*\\p{L})|readers|reading|watching|watchers|downloads|installs|stars|stargazers|forks|followers|likes|shares|subscribers|plays|listens|reactions|upvotes|comments|reviews|ratings)';
/** Words that may stand between the number and what it counts: "1,234 people are viewing this". */
const BETWEEN = '(?:people|persons|users|others|shoppers|guests|members|fans|developers|are|is|currently|now|right|also)';
const COUNT = '\\d[\\d,.]*(?:\\s?(?:[km]\\b|thousand\\b|million\\b))?\\+?';
const COUNT_THEN_COUNTED = new RegExp(`(?<![\\d.,])${COUNT}(?=(?:\\s+${BETWEEN}\\b){0,3}\\s+${COUNTED}\\b)`, 'giu');
const COUNTED_THEN_COUNT = new RegExp(`\\b(?:views|visitors|visits|downloads|installs|stars|forks|followers|likes|subscribers|reviews|ratings)\\s*[:(]?\\s*${COUNT}`, 'gi');

/** Runs of letters, digits, "-" and "_", starting where such a run starts; `isRandomToken` decides. */
const TOKEN_RUN = /(?<![\w-])[\w-]{16,}/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CACHE_BUSTER = /([?&](?:v|ver|version|_|cb|ts|t|timestamp|cache|cachebust|cachebuster|bust|nocache|rev|build|hash)=)[\w.-]+/gi;

const STAMP = /\b(?:last\s+(?:updated|modified|changed|edited|revised|reviewed|refreshed|synced|checked)|(?:updated|modified|generated|rendered|built|refreshed|fetched|retrieved|cached)\s+(?:on|at)|generated|as\s+of)\b:?/gi;
/** A word of a stamp: a number, a date or time word, a zone, a placeholder left by another rule. */
const STAMP_WORD = new RegExp(`^(?:[\\d\u2022][\\d\u2022:./\\-,TZ+]*|${MONTH}|${WEEKDAY}|${DAY}|${UNIT}|[ap]\\.?m\\.?|utc|gmt|z|ago|yesterday|today|just|now)[,.;)]?$`, 'i');
const STAMP_ZONE = /^\(?[A-Z]{1,4}T\)?[,.;]?$/;
const STAMP_JOINER = /^(?:on|at|of|the|by)$/i;
/** Words of a stamp read at most: "Friday, 27 November 2026 at 10:32:05 AM UTC" is nine. */
const MAX_STAMP_WORDS = 12;

export const NOISE_RULES: readonly NoiseRule[] = [
  {
    name: 'last-updated',
    description: 'The date or time after "last updated", "last modified", "generated at", "as of" and the like ("Last updated: 2026-11-27 10:32 UTC", "Generated at 1732712345").',
    mask: maskStamps,
  },
  {
    name: 'dates',
    description: 'Dates as usually written: 2026-11-27 (with a time), 27/11/2026, 11/27/2026, 27.11.2026, November 27, 2026, Nov 27, 27 Nov 2026, Friday, 27 November, November 2026. A year alone is not a date.',
    mask: maskDates,
  },
  {
    name: 'times',
    description: 'Clock times: 10:32, 10:32 AM, 10:32:05 UTC, 3pm.',
    mask: (sentence) => sentence.replace(TIME, PLACEHOLDER),
  },
  {
    name: 'relative-times',
    description: 'Relative times: "3 days ago", "an hour ago", "5m ago", "yesterday", "today", "just now".',
    mask: (sentence) => sentence.replace(RELATIVE, PLACEHOLDER),
  },
  {
    name: 'copyright',
    description: 'Copyright marks and their years: "\u00a9 2019-2026", "Copyright 2026", "(c) 2026"; the holder\'s name stays.',
    mask: (sentence) => sentence.replace(COPYRIGHT, PLACEHOLDER),
  },
  {
    name: 'live-counters',
    description: 'The number of a live counter: visitors, views, people viewing or online, readers, downloads, stars, followers, likes, subscribers, reviews ("1,234 people are viewing this", "12k views", "Downloads: 1.2M"). Counts of customers, teams or employees stay.',
    mask: (sentence) => sentence.replace(COUNT_THEN_COUNTED, PLACEHOLDER).replace(COUNTED_THEN_COUNT, (counter) => counter.replace(/\d[\d,.]*(?:\s?(?:[km]\b|thousand\b|million\b))?\+?$/i, PLACEHOLDER)),
  },
  {
    name: 'random-tokens',
    description: 'Long random tokens (CSRF tokens, request ids, nonces, hashes): 16 or more letters, digits, "-" and "_", hexadecimal or switching between letters and digits, UUIDs.',
    mask: (sentence) => sentence.replace(TOKEN_RUN, (run) => (isRandomToken(run) ? PLACEHOLDER : run)),
  },
  {
    name: 'cache-busters',
    description: 'The value of a cache-busting query parameter in a URL written in text: ?v=123, ?_=1699..., ?cb=, ?ts=, ?ver=, ?rev=, ?hash=.',
    mask: (sentence) => sentence.replace(CACHE_BUSTER, `$1${PLACEHOLDER}`),
  },
];

/** The sentence as two readings are compared: NFKC, every NOISE_RULES mask then the watch's own `ignore` mask applied, spacing collapsed, case folded. */
export function comparable(sentence: string, ignore?: (sentence: string) => string): string {
  let text = sentence.normalize('NFKC');
  for (const rule of NOISE_RULES) text = rule.mask(text);
  if (ignore) text = ignore(text);
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function maskDates(sentence: string): string {
  return sentence
    .replace(ISO_DATE, PLACEHOLDER)
    .replace(NUMERIC_DATE, numericDate)
    .replace(MONTH_FIRST, PLACEHOLDER)
    .replace(DAY_FIRST, PLACEHOLDER)
    .replace(MONTH_YEAR, PLACEHOLDER);
}

/** A numeric date masked when it can be one: day and month in range, a two-digit year never after a dot (2.3.10 is a version). */
function numericDate(match: string, first: string, separator: string, second: string, year: string): string {
  const [a, b] = [Number(first), Number(second)];
  const plausible = a >= 1 && b >= 1 && a <= 31 && b <= 31 && (a <= 12 || b <= 12);
  if (!plausible || (separator === '.' && year.length === 2)) return match;
  return PLACEHOLDER;
}

/** Masks the date or time words after each stamp phrase, keeping the phrase ("Last updated: \u2022"). */
function maskStamps(sentence: string): string {
  let result = '';
  let from = 0;
  for (const phrase of sentence.matchAll(STAMP)) {
    if (phrase.index < from) continue;
    const start = phrase.index + phrase[0].length;
    const end = stampEnd(sentence, start);
    if (end === start) continue;
    result += `${sentence.slice(from, start)} ${PLACEHOLDER}`;
    from = end;
  }
  return result + sentence.slice(from);
}

/** Where the stamp that starts at `start` ends: after its last date or time word (a joiner such as "at" ends nothing). */
function stampEnd(sentence: string, start: number): number {
  const word = /\s*(\S+)/y;
  word.lastIndex = start;
  let end = start;
  for (let count = 0; count < MAX_STAMP_WORDS; count++) {
    const found = word.exec(sentence);
    const text = found?.[1];
    if (!found || text === undefined) break;
    if (STAMP_WORD.test(text) || STAMP_ZONE.test(text)) end = word.lastIndex;
    else if (!STAMP_JOINER.test(text)) break;
  }
  return end;
}

/**
 * A run that reads as machine-made: hexadecimal with a digit and a letter (hashes, UUIDs), or
 * switching between letters and digits at least three times inside one of its "-"/"_" parts
 * ("kJ8sd9FhQ2xLm3Nn0pZr", "req_01HF3K9Z8Y7X6W5V4T"), or with a part of 12 or more hex digits
 * ("req_956affa250225933"). Slugs of words and numbers
 * ("top-10-analytics-tools-for-2026") are not.
 */
function isRandomToken(run: string): boolean {
  if (UUID.test(run)) return true;
  const bare = run.replace(/[-_]/g, '');
  if (bare.length < 16 || !/\d/.test(bare) || !/[a-z]/i.test(bare)) return false;
  if (/^[0-9a-f]+$/i.test(bare)) return true;
  // A prefixed id ("req_956affa250225933"): one part of 12 or more hex digits, with a letter and a digit.
  return run.split(/[-_]/).some((part) => letterDigitSwitches(part) >= 3 || isHexId(part));
}

function isHexId(part: string): boolean {
  return part.length >= 12 && /^[0-9a-f]+$/i.test(part) && /\d/.test(part) && /[a-f]/i.test(part);
}

function letterDigitSwitches(part: string): number {
  let switches = 0;
  for (let index = 1; index < part.length; index++) {
    if (isDigit(part.charCodeAt(index)) !== isDigit(part.charCodeAt(index - 1))) switches++;
  }
  return switches;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

const OPENING_QUOTES = '\u201c"\u00ab\u201e\u2018\u300c';
const CLOSING_QUOTES = '\u201d"\u00bb\u201c\u2019\u300d';
/** After a closing quote: only punctuation, or an attribution ("— Jane Doe", ", said Jane Doe"). */
const QUOTE_END = /^[.,!?]?\s*$/;
const ATTRIBUTION_AFTER_QUOTE = /^[.,!?]?\s*(?:(?:\u2014|\u2013|--|~)\s*\p{Lu}|(?:said|says|writes|wrote|explains|explained|added|adds|notes|noted|according\s+to)\b)/u;
/** A name: one to four capitalized words ("Jane Doe", "Dr. Ana de la Cruz" reads as its capitalized words). */
const NAME = "\\p{Lu}[\\p{L}.'\u2019-]*(?:\\s+\\p{Lu}[\\p{L}.'\u2019-]*){0,3}";
/** "— Jane Doe, VP Sales at Initech" alone, or after a sentence's last stop. */
const ATTRIBUTION_LINE = new RegExp(`^(?:\u2014|\u2013|--|~)\\s*${NAME}(?:,.{0,120})?$`, 'u');
const TRAILING_ATTRIBUTION = new RegExp(`[.!?]\\s*(?:\u2014|\u2013|--)\\s*${NAME}(?:,.{0,120})?$`, 'u');

/** A quoted testimonial or review: a sentence (or a run of sentences) inside quotation marks (“…”, "…", «…», „…“), or one followed by an attribution ("— Jane Doe, VP Sales at Initech"). Sites rotate these on every load, so a watch never diffs them. */
export function isTestimonial(sentence: string): boolean {
  const text = sentence.trim();
  if (ATTRIBUTION_LINE.test(text) || TRAILING_ATTRIBUTION.test(text)) return true;
  return opensQuote(text) || closesQuote(text);
}

/**
 * Which sentences of a run (a page's sentences in order) are testimonials: those `isTestimonial`
 * finds, and the ones inside a quotation that opens in one sentence and closes in a later one
 * (at most MAX_QUOTED_RUN sentences on; a quote left open longer marks only its first sentence).
 */
export function testimonialRuns(sentences: readonly string[]): boolean[] {
  const marked = sentences.map(isTestimonial);
  for (let index = 0; index < sentences.length; index++) {
    const text = sentences[index]?.trim() ?? '';
    if (!startsQuoteLeftOpen(text)) continue;
    const last = sentences.slice(index + 1, index + 1 + MAX_QUOTED_RUN).findIndex((later) => closesQuote(later.trim()));
    if (last < 0) continue;
    for (let inside = index; inside <= index + 1 + last; inside++) marked[inside] = true;
    index += last + 1;
  }
  return marked;
}

const MAX_QUOTED_RUN = 8;

/** Starts with an opening quote that closes at the end, before an attribution, or not at all in this sentence. */
function opensQuote(text: string): boolean {
  if (!OPENING_QUOTES.includes(text[0] ?? '\0')) return false;
  const close = firstClose(text, 1);
  if (close < 0) return true;
  const after = text.slice(close + 1);
  return QUOTE_END.test(after) || ATTRIBUTION_AFTER_QUOTE.test(after);
}

function startsQuoteLeftOpen(text: string): boolean {
  return OPENING_QUOTES.includes(text[0] ?? '\0') && firstClose(text, 1) < 0;
}

/** The last sentence of a quotation: a closing quote with no quote opened before it, then its end or an attribution. */
function closesQuote(text: string): boolean {
  for (let at = text.length - 1; at >= 0; at--) {
    if (!isClosing(text, at)) continue;
    const after = text.slice(at + 1);
    if (!QUOTE_END.test(after) && !ATTRIBUTION_AFTER_QUOTE.test(after)) continue;
    const before = text.slice(0, at);
    return ![...before].some((character) => OPENING_QUOTES.includes(character));
  }
  return false;
}

function firstClose(text: string, from: number): number {
  for (let at = from; at < text.length; at++) if (isClosing(text, at)) return at;
  return -1;
}

/** A closing quote; "’" only after punctuation, as an apostrophe ("customers’") is not one. */
function isClosing(text: string, at: number): boolean {
  const character = text[at] ?? '';
  if (!CLOSING_QUOTES.includes(character)) return false;
  return character !== '\u2019' || /[.!?,]/.test(text[at - 1] ?? '');
}
