import type { ResearchResult } from '../research/provider.ts';

/**
 * The facts a watch execution takes from its brief: a few typed company properties, each read from
 * one cited sentence whose subject is the company (the sentence starts with its name or domain).
 * Nothing is inferred: a value is written only when a cited sentence states it, and its provenance
 * URL is that sentence's source. Properties no sentence states are left as they are.
 *
 *   founded       `<Company> was founded in 2009`                    -> 2009
 *   headquarters  `<Company> is headquartered in Chicago, Illinois`  -> "Chicago, Illinois" (also "is based in")
 *   employees     `<Company> has about 1,450 employees` / `employs about 1,450 people` -> 1450
 *   pricing       `<Company> pricing starts at $49 per seat per month ...` -> the sentence itself
 */

export interface Fact {
  value: string | number;
  /** The source the sentence is quoted from. */
  url: string;
  sentence: string;
}

export type Facts = Partial<Record<FactName, Fact>>;

export const FACT_NAMES = ['founded', 'headquarters', 'employees', 'pricing'] as const;
type FactName = (typeof FACT_NAMES)[number];

/** Words research gets as soft context, so that the sentences stating these facts rank higher. */
export const FACT_CUES = 'pricing price plan founded headquartered based employees employs';

const FOUNDED = /\bfounded in (\d{4})\b/;
// Capitalized place words separated by commas or spaces: "Chicago, Illinois", "Tel Aviv, Israel".
const PLACE = "[A-Z][\\p{L}.'-]*(?:(?:, | )[A-Z][\\p{L}.'-]*)*";
const HEADQUARTERS = new RegExp(`(?:\\bis |\\bare |, )(?:headquartered|based) in (${PLACE})`, 'u');
const EMPLOYEES =
  /\b(?:has|had|employs|employed) (?:about |around |roughly |approximately |nearly |almost |over |more than |some )?(\d{1,3}(?:,\d{3})+|\d+) (?:employees|people|staff)\b/;
const PRICE = /(?:[$€£]\s?\d|\b\d[\d,.]* ?(?:USD|EUR|GBP)\b)/;
const PRICING_WORD = /\b(?:pric(?:e|es|ing|ed)|costs?|plans?)\b/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The facts about the company named `name` (or `key`, its domain) stated by `result`'s findings, in
 * the order research ranked them: for each fact, the first sentence that states it.
 */
export function extractCompanyFacts(company: { key: string; name?: string }, result: ResearchResult, now = new Date()): Facts {
  const names = [company.name, company.key].filter((n): n is string => Boolean(n && n.trim())).map((n) => escapeRegExp(n.trim()));
  // The company is the sentence's subject: its name (or domain) opens the sentence, as a whole word.
  const subject = new RegExp(`^(?:The |the )?(?:${names.join('|')})(?![\\p{L}\\p{N}])`, 'u');
  const facts: Facts = {};
  const set = (name: FactName, value: string | number, url: string, sentence: string) => {
    if (facts[name] === undefined) facts[name] = { value, url, sentence };
  };
  for (const finding of result.findings) {
    const sentence = finding.sentence.trim();
    const source = result.sources[finding.source];
    if (!source || !subject.test(sentence)) continue;
    const url = source.url;

    const founded = FOUNDED.exec(sentence);
    const year = founded ? Number(founded[1]) : NaN;
    if (year >= 1800 && year <= now.getUTCFullYear()) set('founded', year, url, sentence);

    const headquarters = HEADQUARTERS.exec(sentence);
    if (headquarters) set('headquarters', headquarters[1]!.replace(/[,.]+$/, ''), url, sentence);

    const employees = EMPLOYEES.exec(sentence);
    if (employees) {
      const count = Number(employees[1]!.replace(/,/g, ''));
      if (Number.isSafeInteger(count) && count > 0) set('employees', count, url, sentence);
    }

    if (PRICE.test(sentence) && PRICING_WORD.test(sentence)) set('pricing', sentence, url, sentence);
  }
  return facts;
}

/**
 * Whether `fact` says something new about a property holding `stored`. A text the stored value
 * already contains (any case) is not new: "Chicago, Illinois" does not replace the more precise
 * "Chicago, Illinois, United States".
 */
export function isNews(stored: unknown, fact: string | number): boolean {
  if (stored === undefined || stored === null) return true;
  if (typeof fact === 'number') return Number(stored) !== fact;
  if (typeof stored !== 'string') return true;
  return !stored.toLowerCase().includes(fact.toLowerCase());
}
