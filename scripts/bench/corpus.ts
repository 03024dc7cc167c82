/**
 * A deterministic synthetic knowledge base for the research benchmark: `source` objects as NDJSON
 * lines for POST /api/v1/oms/objects/import, and research topics drawn from the same vocabulary.
 *
 * Everything comes from a seeded PRNG (mulberry32), so a given (seed, count) always yields the same
 * bytes, and the first N sources of a larger corpus are the N sources of a smaller one. Text is
 * realistic in shape, not in meaning: 5-12 sentences (600-1200 characters) per source, words drawn
 * with a Zipf distribution from about 3,000 words (business English, go-to-market terms and
 * pronounceable made-up words), function words between them, some numbers and company names, on
 * 500 company domains with page kinds (pricing, blog, press, review, comparison, jobs, docs, home),
 * titles and publication dates between 2022 and 2026.
 */

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Go-to-market terms: what research topics are mostly about. */
export const MARKET_TERMS = (
  'pricing plans seats onboarding integrations analytics churn pipeline revenue retention expansion ' +
  'renewal discount trial freemium enterprise security compliance soc2 gdpr sso api dashboard reporting ' +
  'forecasting attribution funnel conversion activation engagement upsell quota territory prospecting ' +
  'outbound inbound demand campaign positioning messaging persona segment vertical benchmark roadmap ' +
  'migration implementation support sla uptime contract procurement invoice billing subscription usage ' +
  'metering tiers annual monthly competitor alternative comparison review rating customers partners ' +
  'reseller marketplace launch funding acquisition hiring headcount layoffs valuation arr mrr nps cac ' +
  'ltv payback warehouse crm automation workflow ai copilot agents connectors'
).split(' ');

/** Ordinary business English (no stopwords, so query terms survive the engine's filter). */
const COMMON_WORDS = (
  'team teams company companies customer product products service services market markets data platform ' +
  'software tool tools feature features user users account accounts sales marketing growth business ' +
  'businesses leader leaders manager managers report reports month months year years quarter week weeks ' +
  'time cost costs price value model models process processes system systems network office region ' +
  'regions country countries industry industries retail finance healthcare manufacturing logistics ' +
  'education media travel energy insurance banking startup startups agency agencies brand brands buyer ' +
  'buyers seller sellers deal deals opportunity opportunities lead leads contact contacts email emails ' +
  'call calls meeting meetings demo demos question questions answer answers problem problems solution ' +
  'solutions result results goal goals plan strategy strategies budget budgets channel channels content ' +
  'article articles guide guides webinar event events conference community feedback survey surveys ' +
  'study studies research insight insights trend trends change changes update updates release releases ' +
  'version versions mobile cloud server servers storage speed performance quality scale scaling risk ' +
  'risks control access permission permissions admin admins role roles engineer engineers developer ' +
  'developers designer designers analyst analysts executive executives director directors founder ' +
  'founders investor investors board employees staff office offices city cities europe america asia ' +
  'north south east west global local national international small medium large mid-market smb ' +
  'simple fast easy flexible secure reliable modern powerful affordable expensive cheaper faster ' +
  'better best new first leading popular unified open private public free paid premium standard ' +
  'advanced basic custom native real-time weekly daily manual automated shared central core key ' +
  'main major minor strong weak high low clear complex full partial direct indirect early late ' +
  'build builds launch launches grow grows help helps improve improves reduce reduces increase ' +
  'increases offer offers provide provides support supports connect connects manage manages track ' +
  'tracks measure measures replace replaces switch switched move moved adopt adopted choose chose ' +
  'announce announced raise raised expand expanded hire hired sign signed close closed win won lose ' +
  'lost compare compared rank ranked rate rated'
).split(' ');

const FUNCTION_WORDS = 'the the the a and and of of to to for with in on our their its across from by as at'.split(' ');

const ONSETS = ['b', 'br', 'c', 'ch', 'cl', 'd', 'dr', 'f', 'fl', 'g', 'gr', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'pl', 'pr', 'r', 's', 'sh', 'sl', 'st', 't', 'tr', 'v', 'w', 'z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'io', 'y'];
const CODAS = ['', '', 'n', 'r', 'l', 's', 't', 'm', 'nd', 'st', 'ck', 'x'];
const SUFFIXES = ['', '', '', 'ing', 'ed', 'er', 'ion', 'ity', 'al', 'ly', 'ment', 'ness', 'ive', 'able'];

function madeUpWord(rng: Rng, syllables: number): string {
  let word = '';
  for (let i = 0; i < syllables; i++) word += pick(rng, ONSETS) + pick(rng, VOWELS) + pick(rng, CODAS);
  return word;
}

/** The general vocabulary in Zipf rank order: common words first, then made-up words (3,000 in all). */
export const VOCABULARY: readonly string[] = (() => {
  const rng = createRng(0x5eed);
  // Shuffled, so the most frequent ranks are not all "team"-like words.
  const common = COMMON_WORDS.filter((word) => !MARKET_TERMS.includes(word));
  for (let i = common.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [common[i], common[j]] = [common[j]!, common[i]!];
  }
  const words = new Set<string>(common);
  while (words.size < 3000) {
    const word = madeUpWord(rng, int(rng, 1, 2)) + pick(rng, SUFFIXES);
    if (word.length >= 4 && !MARKET_TERMS.includes(word)) words.add(word);
  }
  return [...words];
})();

/** Samples indexes 0..n-1 with probability proportional to 1 / (rank + 1)^exponent. */
function zipf(n: number, exponent: number): (rng: Rng) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) cumulative[i] = total += 1 / Math.pow(i + 1, exponent);
  return (rng) => {
    const target = rng() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

const vocabularyRank = zipf(VOCABULARY.length, 0.9);
const marketRank = zipf(MARKET_TERMS.length, 0.6);

const contentWord = (rng: Rng) =>
  rng() < 0.2 ? MARKET_TERMS[marketRank(rng)]! : VOCABULARY[vocabularyRank(rng)]!;

/** 500 fictional companies, each with a brand and a domain. */
export const COMPANIES: readonly { name: string; domain: string }[] = (() => {
  const rng = createRng(0xc0de);
  const tlds = ['com', 'com', 'com', 'io', 'ai', 'co', 'app', 'dev'];
  const seen = new Set<string>();
  const companies: { name: string; domain: string }[] = [];
  while (companies.length < 500) {
    const stem = madeUpWord(rng, int(rng, 2, 3));
    if (stem.length < 5 || seen.has(stem)) continue;
    seen.add(stem);
    companies.push({ name: capitalize(stem), domain: `${stem}.${pick(rng, tlds)}` });
  }
  return companies;
})();

const KINDS = ['home', 'pricing', 'blog', 'blog', 'blog', 'press', 'review', 'compare', 'jobs', 'docs'] as const;

function sentence(rng: Rng, targetChars: number, company: string, other: string): string {
  const words: string[] = [];
  let length = 0;
  const add = (word: string) => {
    words.push(word);
    length += word.length + 1;
  };
  if (rng() < 0.3) add(rng() < 0.75 ? company : other);
  while (length < targetChars || words.length < 6) {
    const roll = rng();
    if (roll < 0.33) add(pick(rng, FUNCTION_WORDS));
    else if (roll < 0.35) add(`$${int(rng, 9, 499)} per seat`);
    else if (roll < 0.37) add(`${int(rng, 2, 95)}%`);
    else if (roll < 0.38) add(`in ${int(rng, 2022, 2026)}`);
    else if (roll < 0.39) add(rng() < 0.5 ? company : other);
    else add(contentWord(rng));
  }
  const text = words.join(' ');
  return capitalize(text) + (rng() < 0.05 ? '?' : '.');
}

function title(rng: Rng, kind: (typeof KINDS)[number], company: string, other: string): string {
  const term = () => MARKET_TERMS[marketRank(rng)]!;
  const word = () => VOCABULARY[vocabularyRank(rng)]!;
  switch (kind) {
    case 'home':
      return `${company}: ${term()} ${word()} for ${word()} teams`;
    case 'pricing':
      return `${company} pricing: plans, seats and ${term()}`;
    case 'blog':
      return `${capitalize(word())} ${term()}: ${word()} ${word()} and ${term()}`;
    case 'press':
      return `${company} announces ${term()} ${word()}`;
    case 'review':
      return `${company} review: ${term()} and ${term()} rated`;
    case 'compare':
      return `${company} vs ${other}: ${term()} compared`;
    case 'jobs':
      return `${company} is hiring: ${capitalize(word())} ${word()} lead`;
    default:
      return `${company} docs: ${term()} ${word()}`;
  }
}

export interface SourceLine {
  type: 'source';
  key: string;
  properties: { title: string; publishedAt: string; content: string };
}

const EPOCH = Date.UTC(2022, 0, 1);
const DAY = 86_400_000;

/** The corpus's sources, in order: the first `count` of the infinite stream for `seed`. */
export function* generateSources(count: number, seed = 1): Generator<SourceLine> {
  const rng = createRng(seed);
  for (let index = 0; index < count; index++) {
    const company = pick(rng, COMPANIES);
    let other = pick(rng, COMPANIES);
    if (other === company) other = COMPANIES[(COMPANIES.indexOf(company) + 1) % COMPANIES.length]!;
    const kind = pick(rng, KINDS);
    const sentences = int(rng, 5, 12);
    const targetTotal = int(rng, 600, 1200);
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; i < sentences; i++) {
      const remaining = sentences - i;
      const next = sentence(rng, Math.max(25, (targetTotal - length) / remaining - 2), company.name, other.name);
      parts.push(next);
      length += next.length + 1;
    }
    const pageTitle = title(rng, kind, company.name, other.name);
    const slug = pageTitle.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
    const date = new Date(EPOCH + int(rng, 0, 1780) * DAY).toISOString().slice(0, 10);
    yield {
      type: 'source',
      key: `https://${company.domain}/${kind}/${slug}-${index}`,
      properties: { title: pageTitle, publishedAt: date, content: parts.join(' ') },
    };
  }
}

/** The corpus as NDJSON request bodies of at most `maxBytes` each (UTF-8; the text is ASCII). */
export function* ndjsonBatches(count: number, maxBytes: number, seed = 1): Generator<{ body: string; sources: number }> {
  let lines: string[] = [];
  let bytes = 0;
  for (const source of generateSources(count, seed)) {
    const line = JSON.stringify(source);
    if (lines.length > 0 && bytes + line.length + 1 > maxBytes) {
      yield { body: lines.join('\n') + '\n', sources: lines.length };
      lines = [];
      bytes = 0;
    }
    lines.push(line);
    bytes += line.length + 1;
  }
  if (lines.length > 0) yield { body: lines.join('\n') + '\n', sources: lines.length };
}

/**
 * Research topics of 1-4 words: each word a go-to-market term (half the time) or a word of the
 * general vocabulary drawn with the corpus's own Zipf weights, and now and then a company name.
 */
export function generateTopics(count: number, seed = 2): string[] {
  const rng = createRng(seed);
  const topics: string[] = [];
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    if (rng() < 0.15) words.push(pick(rng, COMPANIES).name);
    const n = int(rng, 1, 4) - words.length;
    for (let j = 0; j < n || words.length === 0; j++) {
      const word = rng() < 0.5 ? MARKET_TERMS[marketRank(rng)]! : VOCABULARY[vocabularyRank(rng)]!;
      if (!words.includes(word)) words.push(word);
    }
    topics.push(words.join(' '));
  }
  return topics;
}
