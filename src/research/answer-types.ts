/**
 * What an answer looks like. A topic asks for a kind of answer ("what does it cost" wants money,
 * "when" a date, "how long" a duration); a sentence holds kinds of answers (a price, a date, a
 * rating, a stated weakness). Selection favours sentences that hold what the topic asks for, so a
 * pricing page's "$60,000" sentence is chosen even when it shares no word with "pricing". Pure,
 * deterministic, English-only cue lists: each type says in one line why a sentence matched.
 */

export const ANSWER_TYPES = ['money', 'percent', 'date', 'duration', 'count', 'headcount', 'rating', 'weakness', 'person', 'place', 'change'] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

/**
 * Cues in a topic, matched on its lower-cased words (the question words "when", "how long", "how
 * many" are stopwords for search but carry the answer type). A cue ending in `*` matches any word
 * that starts with it.
 */
const TOPIC_CUES: Record<AnswerType, readonly string[]> = {
  money: [
    'how much', 'price*', 'pricing', 'cost*', 'charg*', 'fee', 'fees', 'pay', 'pays', 'paid', 'salar*', 'wage*', 'compensation',
    'earnings', 'quota*', 'fund*', 'raise', 'raised', 'revenue*', 'arr', 'discount*', 'spend*', 'budget*', 'valuation', 'overage*',
    'billing', 'invest*', 'expensive', 'cheap*', 'afford*', 'subscription*', 'rate card', 'per seat', 'per user', 'tco',
  ],
  percent: [
    'percent*', 'percentage*', 'share', 'proportion', 'discount*', 'reduction', 'reduce*', 'lift', 'growth', 'grew', 'grow*',
    'increase*', 'decrease*', 'improve*', 'saving*', 'save', 'impact', 'overhead', 'margin*', 'churn', 'conversion', 'uptime',
    'turnover', 'attrition', 'result', 'results', 'outcome', 'outcomes',
  ],
  date: ['when', 'date', 'dates', 'founded', 'founding', 'launch*', 'since', 'year', 'acquir*', 'acquisition*', 'effective', 'deadline', 'release*', 'started', 'start date', 'timeline'],
  duration: [
    'how long', 'how fast', 'how quickly', 'duration', 'length', 'time', 'times', 'take', 'takes', 'trial', 'retention', 'life',
    'lifetime', 'period', 'window', 'turnaround', 'lead time', 'onboarding', 'implementation', 'setup', 'deployment', 'rollout',
    'payback', 'term', 'terms',
  ],
  count: ['how many', 'number of', 'count', 'limit', 'limits', 'allowance', 'capacity', 'result', 'results', 'outcome', 'outcomes'],
  headcount: ['headcount', 'head count', 'employees', 'employee count', 'staff', 'workforce', 'team size', 'how many people', 'people work*', 'fte*'],
  rating: ['rating*', 'rated', 'rate', 'score*', 'stars', 'review*', 'reviewer*', 'satisfaction', 'nps'],
  weakness: [
    'weakness*', 'weak', 'drawback*', 'downside*', 'complaint*', 'complain*', 'limitation*', 'cons', 'problem*', 'risk*', 'criticism*',
    'caution*', 'issue*', 'bug', 'bugs', 'pain point*', 'shortcoming*', 'gap', 'gaps', 'flaw*', 'concern*', 'negative*',
    'dislike*', 'hate*', 'worst', 'annoy*', 'unhappy', 'gripe*', 'pitfall*',
  ],
  person: ['who', 'whom'],
  place: ['where', 'headquarter*', 'hq', 'based in', 'located', 'head office'],
  change: [
    'result', 'results', 'outcome', 'outcomes', 'impact', 'saving*', 'save', 'saved', 'improve*', 'reduction*', 'reduce*', 'roi',
    'return on', 'growth', 'grew', 'before and after', 'difference', 'gain', 'gains', 'effect', 'effects', 'benefit*',
  ],
};

/**
 * Nouns that ask for a count only when nothing else is asked ("Initech customers" wants how many;
 * "Initech weaknesses according to customers" wants the weaknesses, and "customers" says whose).
 */
const WEAK_COUNT_CUES = ['customers', 'users', 'size', 'volume'] as const;

/**
 * Titles and roles that ask for a person only when nothing else is asked ("Initech's CFO" wants a
 * name; "Initech account executive salary" wants the pay of a role).
 */
const WEAK_PERSON_CUES = [
  'ceo', 'cfo', 'cto', 'coo', 'cmo', 'cro', 'cpo', 'chro', 'founder*', 'co-founder*', 'cofounder*', 'chief', 'president',
  'chair', 'chairman', 'chairwoman', 'head of', 'leads', 'leader*', 'executive*', 'director*', 'vp', 'vice president',
] as const;

/** A pattern for cue words; `wholeWord` also refuses a cue that is part of a hyphenated word ("mid-size"). */
function cuePattern(cues: readonly string[], wholeWord = false): RegExp {
  const alternatives = cues.map((cue) => {
    const text = cue.replace(/\*$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
    return cue.endsWith('*') ? `${text}[\\p{L}-]*` : text;
  });
  const edge = wholeWord ? '\\p{L}\\p{N}-' : '\\p{L}\\p{N}';
  return new RegExp(`(?<![${edge}])(?:${alternatives.join('|')})(?![${edge}])`, 'iu');
}

/**
 * "<Something> rate" asks for a share, not a rating: a click, completion, churn or win rate is a
 * percentage. General English compounds; "how do users rate it" and "rated" still ask for a rating.
 */
const SHARE_RATE = cuePattern(
  ['click', 'completion', 'churn', 'win', 'conversion', 'open', 'error', 'response', 'growth', 'retention', 'attrition', 'turnover', 'adoption', 'success', 'failure', 'pass', 'bounce', 'renewal', 'close', 'utilization', 'engagement', 'participation', 'occupancy', 'default', 'interest', 'tax', 'vacancy', 'unemployment']
    .map((word) => `${word} rate`)
    .concat(['click-through rate']),
);
const SHARE_RATE_WORDS = /(?<![\p{L}\p{N}])rates?(?![\p{L}\p{N}])/giu;

const TOPIC_PATTERNS = Object.fromEntries(ANSWER_TYPES.map((type) => [type, cuePattern(TOPIC_CUES[type])])) as Record<AnswerType, RegExp>;

const WEAK_COUNT_PATTERN = cuePattern(WEAK_COUNT_CUES, true);
/** Question words that ask for something besides a person ("who ... and when"). */
const EXPLICIT_OTHER = cuePattern(['when', 'how much', 'how many', 'how long', 'what year']);
const WEAK_PERSON_PATTERN = cuePattern(WEAK_PERSON_CUES);
/** "who has more", "who is cheaper", "who offers the most": "who" comparing companies, not asking for a person. */
const WHO_AS_WHICH = /(?<![\p{L}\p{N}])who\s+(?:has|have|is|are|offers?|sells?|charges?|raised|pays?|gets?)\s+(?:the\s+)?(?:more|most|fewer|less|least|better|best|worse|worst|(?:cheap|big|larg|small|fast|new|old|high|low|great)(?:er|est))(?![\p{L}\p{N}])/iu;

/** "when" (or "what year") asks for a date, whatever else the topic's words name ("when does the pricing change take effect"). */
const WHEN = cuePattern(['when', 'what year', 'which year', 'what date']);
/** Question words that ask for something besides a date ("when ... and how much"). */
const EXPLICIT_NOT_DATE = cuePattern(['how much', 'how many', 'how long', 'who', 'whom']);
/**
 * The size of a market is what it is worth ("market size", "size of the restaurant software
 * market"): money, not a count of its people ("workforce software") or its size in units.
 */
const MARKET_SIZE = /(?<![\p{L}\p{N}])(?:market\s+(?:size|value)|size\s+of\s+(?:the\s+)?(?:[\p{L}-]+\s+){0,5}?market)(?![\p{L}\p{N}])/iu;

/** The kinds of answer a topic asks for, in ANSWER_TYPES order; none for a topic without cues. */
export function topicAnswerTypes(topic: string): AnswerType[] {
  const text = topic.normalize('NFKC');
  if (MARKET_SIZE.test(text)) return ['money'];
  if (WHEN.test(text) && !EXPLICIT_NOT_DATE.test(text)) return ['date'];
  // A share rate's "rate" is no rating cue: read the rest without it, and ask for a percentage.
  const shareRate = SHARE_RATE.test(text);
  const rest = shareRate ? text.replace(SHARE_RATE_WORDS, ' ') : text;
  const types = ANSWER_TYPES.filter((type) => (type === 'percent' && shareRate) || TOPIC_PATTERNS[type].test(type === 'rating' ? rest : text));
  // "who has more customers" asks which company, as "which" would: no person.
  if (types.includes('person') && WHO_AS_WHICH.test(text)) types.splice(types.indexOf('person'), 1);
  // "who founded Initech" asks for a person; "founded" would also read as a date.
  else if (types.includes('person') && !EXPLICIT_OTHER.test(text)) return ['person'];
  if (types.length > 0) return types;
  if (WEAK_PERSON_PATTERN.test(text)) return ['person'];
  return WEAK_COUNT_PATTERN.test(text) ? ['count'] : [];
}

/**
 * The kinds of answer each part of a topic that asks several things asks for: the parts are joined
 * by "and" or commas ("Pulsegrid Growth plan price and free trial length": a price, then a
 * duration; "Series B amount, date and lead investor"). Empty unless at least two parts ask for
 * different kinds, so a topic asking one thing, or the same kind twice, has no parts.
 */
export function topicParts(topic: string): AnswerType[][] {
  const parts = topic
    .normalize('NFKC')
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)
    .map(topicAnswerTypes)
    .filter((types) => types.length > 0);
  const kinds = new Set(parts.map((types) => types.join()));
  return kinds.size > 1 ? parts : [];
}

/**
 * The scale of money a topic asks for: a `sum` (what was raised, earned, paid for a company or
 * spent on a market, stated in millions: "Series B amount", "annual recurring revenue") or a
 * `price` (what a plan, a seat or a fee costs: "Premium plan price", "cheapest vendor"); null
 * when it names neither, or both. A price stated in millions is most often a near miss for a
 * price topic (the vendor's funding beside its plans), and a per-seat price one for a funding topic.
 */
export type MoneyScale = 'sum' | 'price';
const SUM_CUES = cuePattern(['fund*', 'raise*', 'raising', 'revenue*', 'arr', 'valuation', 'invest*', 'series', 'round', 'acquisition*', 'market']);
const PRICE_CUES = cuePattern(['price*', 'pricing', 'cost*', 'charg*', 'fee', 'fees', 'cheap*', 'expensive', 'afford*', 'per seat', 'per user', 'subscription*', 'billing', 'overage*']);

/** The scale of money `topic` asks for (see MoneyScale). */
export function moneyScaleAsked(topic: string): MoneyScale | null {
  const text = topic.normalize('NFKC');
  const sum = SUM_CUES.test(text);
  const price = PRICE_CUES.test(text);
  return sum === price ? null : sum ? 'sum' : 'price';
}

/** Whether a sentence's figures (`figures`) hold a sum in millions or billions ("$60 million", "€1.2bn"). */
export function holdsLargeSum(figureTokens: readonly string[]): boolean {
  return figureTokens.some((token) => /\d(?:million|billion|bn|m)$/.test(token));
}

/**
 * A sentence that prices something added to a plan rather than the plan ("can add Payroll to the
 * Premium plan for $6", "each additional employee costs $4", "an optional add-on"): a near miss for a
 * topic that asks what a plan or product costs. General English; "Premium adds payroll" (a plan's
 * features) is no add-on.
 */
const ADD_ON = /\b(?:(?:can|may|to|also|and|or)\s+add\b|add-ons?\b|additional\b|extra\b|optional(?:ly)?\b|on top of\b)/i;

/** Whether `sentence` prices or names an add-on (see ADD_ON). */
export function holdsAddOn(sentence: string): boolean {
  return ADD_ON.test(sentence);
}

/**
 * A sentence that tells of a time before the present one by what came after it ("before Counterbell
 * he was CFO of a franchise group", "before joining Shiftlark"): what it states is an earlier figure
 * or role. The words of select.ts EARLIER_STEMS ("previously", "formerly") mark it too.
 */
const BEFORE = /\b[Bb]efore (?:joining |founding |starting )?\p{Lu}/u;

/** Whether `sentence` speaks of a time before what it names (see BEFORE). */
export function tellsOfBefore(sentence: string): boolean {
  return BEFORE.test(sentence);
}

/**
 * A sentence that states a plan or an intent rather than what happened ("will open a Seattle office
 * in January 2026", "plans to add HIPAA courses", "is planned for later in 2026", "does not yet
 * support"): a near miss for a topic that asks what happened or is. General English.
 */
const FUTURE =
  /\b(?:will|shall|(?:plans|planning|intends|intending|expects|aims) to|(?:we|they|I) (?:plan|intend|expect|aim) to|planned (?:for|to)|(?:is|are) (?:expected|set|going) to|not yet|later (?:this|next|in)|next (?:year|quarter|month))\b/i;

/** Whether `sentence` states a plan or an intent (see FUTURE). */
export function tellsOfFuture(sentence: string): boolean {
  return FUTURE.test(sentence);
}

/**
 * Whether a topic asks about plans or the future itself ("roadmap", "upcoming", "use of funds",
 * "when does the price change take effect"): then a plan is no near miss.
 */
export function asksFuture(topic: string): boolean {
  return (
    FUTURE.test(topic) ||
    /\b(?:plans|planned|roadmap|upcoming|future|forecast|outlook|expansion|expand|use of (?:funds|proceeds|the (?:money|capital|funds))|next)\b/i.test(topic) ||
    // A change still to come: "when does the price change take effect" (not "when did it take effect").
    (/\b(?:takes? effect|(?:go|goes|come|comes) into (?:effect|force))\b/i.test(topic) && !/\bdid\b/i.test(topic))
  );
}

/**
 * The last words of job titles, as written in job ads and team pages ("Senior Detection Engineer",
 * "Sales Development Representatives", "account executive"): general English, read as whole words,
 * singular or plural (`jobTitlesIn`), never as stems: "market", "account" and "engine" share a stem
 * with "marketer", "accountant" and "engineer" and name no one. A topic that names one asks about
 * that role; a sentence naming only others speaks of another role.
 */
export const JOB_TITLE_WORDS = [
  'engineer', 'manager', 'executive', 'representative', 'designer', 'developer', 'analyst', 'director', 'specialist', 'consultant',
  'scientist', 'recruiter', 'coordinator', 'administrator', 'architect', 'accountant', 'technician', 'advocate', 'strategist',
  'researcher', 'marketer', 'intern', 'nurse', 'chef', 'cashier',
] as const;

const JOB_TITLE = new RegExp(`\\b(${JOB_TITLE_WORDS.join('|')})s?\\b`, 'gi');

/** The job titles (JOB_TITLE_WORDS, singular and lower case) `text` names as whole words: "Account Executives" names "executive", "market share" none. */
export function jobTitlesIn(text: string): Set<string> {
  return new Set([...text.matchAll(JOB_TITLE)].map((match) => match[1]!.toLowerCase()));
}

/** Whether a topic itself asks about add-ons or extras ("add-on pricing", "additional seats"): then they are no near miss. */
export function asksAddOn(topic: string): boolean {
  return ADD_ON.test(topic) || /\badd(?:s|ing)?\b/i.test(topic);
}

/**
 * The currency sign a topic asks its money in, from a currency or a place named in it ("price in US
 * dollars", "Rota Pro price in the United States", "salary in euros", "UK pricing"); null when it
 * names none, or places of different currencies. General English names of the currencies and of
 * the places that use them (not a language's name: a course "in German" is no price in euros).
 */
const CURRENCY_CUES: readonly [string, RegExp][] = [
  ['$', /(?<![\p{L}])(?:USD|US\$|dollars?|U\.?S\.?A?|United States|America|American|Americas|Canada|Canadian|CAD|Australia|Australian|AUD)(?![\p{L}])/u],
  ['€', /(?<![\p{L}])(?:EUR|euros?|Europe|European|EU|eurozone|Eurozone|Germany|France|DACH|Spain|Italy|Netherlands|Ireland)(?![\p{L}])/u],
  ['£', /(?<![\p{L}])(?:GBP|pounds? sterling|pounds?|sterling|UK|U\.K\.|United Kingdom|Britain|British|England)(?![\p{L}])/u],
];

/** The currency sign `topic` asks for (see CURRENCY_CUES). */
export function currencyAsked(topic: string): string | null {
  const text = topic.normalize('NFKC');
  const asked = CURRENCY_CUES.filter(([, cue]) => cue.test(text)).map(([sign]) => sign);
  return asked.length === 1 ? asked[0]! : null;
}

const CURRENCY_WORDS: Record<string, RegExp> = { $: /dollars?$/, '€': /euros?$/, '£': /pounds?$/ };

/** Whether a sentence's figures (`figures`) hold money in the currency `sign` ("#$26", "#160,000euros"). */
export function holdsCurrency(figureTokens: readonly string[], sign: string): boolean {
  return figureTokens.some((token) => token.startsWith(`#${sign}`) || CURRENCY_WORDS[sign]!.test(token));
}

/**
 * Roles at the head of a company, as pages name them (general English titles; "who runs our
 * finance team" is the CFO). A topic that asks for one of them is answered by a sentence that names
 * that role, and near-missed by one that names only another ("co-founder and chief operating
 * officer" for "who runs Gratuvo").
 */
const ROLES: readonly RegExp[] = [
  /\b(?:ceo|chief executive)\b/i,
  /\b(?:cfo|chief financial officer|finance chief|head of finance|runs? (?:our |the |its )?finance)\b/i,
  /\b(?:cto|chief technology officer|head of engineering)\b/i,
  /\b(?:coo|chief operating officer)\b/i,
  /\b(?:cmo|chief marketing officer|head of marketing)\b/i,
  /\b(?:cpo|chief product officer|head of product)\b/i,
  /\b(?:cro|chief revenue officer|head of sales)\b/i,
  /\b(?:co-?founders?|founders?|(?:co-)?founded|started)\b/i,
];
/** "Who runs (leads, heads) a company" asks for its chief executive. */
const WHO_RUNS = /\bwho\s+(?:runs|leads|heads|manages|is in charge of)\b/i;

/** The roles `text` names, as bits (bit i for ROLES[i]); 0 for none. */
export function rolesIn(text: string): number {
  let bits = 0;
  ROLES.forEach((role, i) => {
    if (role.test(text)) bits |= 1 << i;
  });
  return bits;
}

/** Whether a topic asks who runs (leads, heads) a company: its chief executive. */
export function asksWhoRuns(topic: string): boolean {
  return WHO_RUNS.test(topic);
}

/** The roles a topic asks for (`rolesIn`, and the chief executive for "who runs"); 0 for none. */
export function rolesAsked(topic: string): number {
  return rolesIn(topic) | (asksWhoRuns(topic) ? 1 : 0);
}

const NUMBER_WORD =
  '(?:\\d[\\d,.]*|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|several|a few|a couple of)';
const UNIT = '(?:seconds?|minutes?|hours?|days?|weeks?|months?|quarters?|years?)';
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

/** A detector that needs both tests to hold for the sentence. */
function bothOf(a: { test(text: string): boolean }, b: { test(text: string): boolean }): { test(text: string): boolean } {
  return { test: (text) => a.test(text) && b.test(text) };
}

/**
 * Words that make a run of capitalized words the name of a firm, a fund or a job rather than of a
 * person ("Harborlight Capital", "Granite Arch Partners", "Customer Success Manager"): general
 * English, the last word of a firm's or a title's name. A run holding one names no one.
 */
const NOT_A_PERSON = new Set([
  'capital', 'ventures', 'venture', 'partners', 'partner', 'equity', 'growth', 'fund', 'funds', 'holdings', 'group', 'investments',
  'investors', 'management', 'advisors', 'advisers', 'associates', 'labs', 'inc', 'llc', 'ltd', 'corp', 'corporation', 'company',
  'bank', 'foods', 'systems', 'technologies', 'software', 'solutions', 'research', 'insurance', 'health', 'logistics', 'hospitality',
  'manager', 'managers', 'executive', 'executives', 'engineer', 'engineers', 'director', 'officer', 'representative',
  'representatives', 'designer', 'specialist', 'analyst', 'developer', 'consultant', 'coordinator', 'associate', 'lead',
]);
/** Runs of capitalized words (a middle initial allowed), with case. */
const CAPITALIZED_RUN = /\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?(?:\s(?:\p{Lu}\.\s)?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)+/gu;

/** Whether `text` names a person: two or more capitalized words in a run that holds no NOT_A_PERSON word. */
function namesAPerson(text: string): boolean {
  for (const match of text.matchAll(CAPITALIZED_RUN)) {
    if (!match[0].split(/\s/).some((word) => NOT_A_PERSON.has(word.toLowerCase()))) return true;
  }
  return false;
}

/**
 * Words that judge a product as wanting, whatever the market (general English: what reviewers and
 * analysts write): "the main limitation", "complain most about", "clunky", "pricey".
 */
const PLAIN_WEAKNESS =
  '\\b(?:weakness(?:es)?|weak(?:er|est)?|drawbacks?|downsides?|limitations?|shortcomings?|flaw(?:s|ed)?|complain(?:s|ed|ts?)?|cautions?|caveats?|cons\\b|' +
  'lacks?|lacking|critici[sz]\\w*|dislik\\w*|hates?|annoy\\w*|gripes?|clunky|buggy|outdated|confusing|frustrating|poor(?:ly)?|worse|' +
  'hard to|difficult|expensive|costly|pricey|overpriced)\\b';
/**
 * Words that state a weakness in a review but have other common senses, so they alone say less: a
 * product "shows why users struggle", "issues W-2 forms", measures "risk"; a market runs on "thin
 * margins".
 */
const FAINT_WEAKNESS =
  '\\b(?:limited|missing|dated|struggl\\w*|frustrat\\w*|slow(?:er|ly)?|thin|bugs?|gaps?|fail(?:s|ed|ing)?|only (?:supports?|offers?|works?)|' +
  'does not|doesn\'t|cannot|can\'t|no longer|climb\\w*|risks?|concerns?|problems?|issues?|crawls?|no [\\w-]+(?: [\\w-]+){0,3} at all)\\b';
/** A stated weakness: a judgment (PLAIN_WEAKNESS) or a word of one (FAINT_WEAKNESS). */
const WEAKNESS = new RegExp(`${PLAIN_WEAKNESS}|${FAINT_WEAKNESS}`, 'i');
const PLAIN_WEAKNESS_PATTERN = new RegExp(PLAIN_WEAKNESS, 'i');
/**
 * A clause saying what another, named company does not do ("..., which Phishwarden does not",
 * "that Counterbell does not offer on any plan"): a rival's gap, read out before looking for a weakness.
 */
const RIVAL_LACKS = /,?\s*(?:which|that)\s+\p{Lu}[\p{L}\p{N}&'-]*(?:\s+\p{Lu}[\p{L}\p{N}&'-]*)*\s+(?:does not|doesn't|do not|don't|cannot|can't)\b[^.;,]*/gu;

/** Sentence-side detectors: each is a shape an answer of that type takes in text. */
const SENTENCE_PATTERNS: Record<AnswerType, { test(text: string): boolean }> = {
  // A currency sign or code next to a figure, a figure in a currency, a stated absence of cost, or
  // a price stated against another ("monthly billing costs 20 percent more", "is 15% cheaper").
  money: new RegExp(
    [
      '[$€£¥₹]\\s?\\d',
      '\\b(?:costs?|costing|priced|pays?|paying|charges?)\\s+(?:about\\s+|around\\s+|roughly\\s+)?\\d[\\d.,]*\\s*(?:%|percent)\\s+(?:more|less|extra)\\b',
      '\\b\\d[\\d.,]*\\s*(?:%|percent)\\s+(?:cheaper|more expensive|less expensive)\\b',
      '\\b(?:usd|eur|gbp|chf|cad|aud|sgd|inr|jpy)\\s?\\d',
      '\\d[\\d,.]*\\s?(?:k|m|bn|thousand|million|billion)?\\s*(?:[a-z]+\\s)?(?:euros?|dollars?|pounds?|francs?|kronor|krona|yen|rupees?|usd|eur|gbp|chf|cad|aud|sgd)\\b',
      '\\b(?:free of charge|at no (?:extra |additional )?(?:cost|charge)|for free|free (?:plan|tier|version|edition))\\b',
      "\\bno\\s(?:[\\w-]+\\s){0,4}?(?:fees?|charges?|costs?|surcharges?)\\b",
    ].join('|'),
    'i',
  ),
  percent: /\d(?:[\d.,]*)\s?(?:%|percent\b|per cent\b|pct\b|percentage points?\b)|\b(?:half|a third|two thirds|a quarter|three quarters|doubled|tripled)\b/i,
  date: new RegExp(
    [
      `\\b${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+(?:19|20)\\d{2}\\b`,
      `\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(?:19|20)\\d{2}\\b`,
      `\\b${MONTH}\\.?\\s+(?:of\\s+)?(?:19|20)\\d{2}\\b`,
      '\\b(?:in|since|from|until|by|of|during|early|late|mid-?)\\s+(?:19|20)\\d{2}\\b',
      '\\bq[1-4]\\s+(?:19|20)\\d{2}\\b',
      '\\b(?:19|20)\\d{2}-\\d{2}-\\d{2}\\b',
    ].join('|'),
    'i',
  ),
  duration: new RegExp(`\\b${NUMBER_WORD}(?:\\s+to\\s+${NUMBER_WORD})?[\\s-]+(?:business\\s+|working\\s+|calendar\\s+)?${UNIT}\\b|\\b(?:overnight|same day|in a day|within a day)\\b`, 'i'),
  // A figure and, within two words, a plural noun ("41 restaurants"); not a word that only ends in
  // s ("June 2025 and sent its first campaign").
  count: /\b\d[\d,.]*\+?\s+(?:[a-z-]+\s+){0,2}?(?:(?!(?:its|is|was|has|does|this|thus|as|us|plus|his|across|always|perhaps|unless|whereas|besides|less|series)\b)[a-z]+s|people|staff|personnel|headcount|workforce)\b|\b(?:dozens|hundreds|thousands|millions) of\b/i,
  // A number of people: a figure and, within two words, who they are; not a size someone else is
  // sized by ("a restaurant with 30 employees", "companies from 200 to 20,000 employees", "for 55 people").
  headcount:
    /(?<!\b(?:with|for|from|between)\s+(?:(?:up to|about|around|roughly|over|under|more than|fewer than|less than|at least)\s+)?)(?<!\d\s+(?:to|and)\s+)(?<![\d.,])\b\d[\d,.]*\+?\s+(?:[a-z-]+\s+){0,2}?(?:people|employees|staff|staffers|workers|engineers|personnel|team members|FTEs?)\b/i,
  rating: /\b\d(?:\.\d)?\s*(?:stars?\s+)?(?:out of|\/)\s*(?:5|10|five|ten)\b|\b(?:rated|rating|stars?)\b/i,
  // A person: a first and last name with capitals (a middle initial allowed; matched with case, so
  // no `i` flag there) that is not a firm's or a job's name (NOT_A_PERSON), beside what says it is
  // someone (a verb of speaking or leading, or a role).
  person: bothOf(
    new RegExp(
      '\\b(?:said|says|told|wrote|joined|joins|leads|led|runs|ran|heads|headed|founded|co-founded|started|hired|appointed|named|' +
        'ceo|cfo|cto|coo|cmo|cro|chief|founders?|co-founders?|president|chair(?:man|woman|person)?|vp|head of|directors?|managers?|' +
        'controller|officer|partners?|analyst|engineer)\\b',
      'i',
    ),
    { test: namesAPerson },
  ),
  // A place a company is in: "headquartered in Toronto", "offices in Austin and Denver", "a Toronto-based vendor"
  // (matched with case: the place is a capitalized name).
  place: new RegExp(
    '(?:\\b(?:[Hh]eadquarter(?:ed|s)|[Bb]ased|[Ll]ocated|[Oo]ffices?|[Hh]ead office|HQ|[Ff]ounded)\\s+(?:(?:is|are)\\s+)?(?:in|out of|at)\\s+(?:the\\s+)?(?!(?:January|February|March|April|May|June|July|August|September|October|November|December)\\b)\\p{Lu})|' +
      // Not the sentence's first word: "Usage-based billing" is no place.
      '(?:(?<=[\\p{L}\\p{N},]\\s)\\p{Lu}\\p{Ll}+-based\\b)',
    'u',
  ),
  // A change stated as one: from a figure to another ("from 24 percent to 4 percent", "down from 7"),
  // or a verb of rising or falling with its figure ("fell 18 percent", "grew its customer base by 60 percent").
  change: new RegExp(
    [
      '\\bfrom\\s+(?:about\\s+|around\\s+|roughly\\s+)?[$€£]?\\d[\\d,.]*\\s*(?:%|[a-z]+)?(?:\\s+[a-z]+){0,2}?\\s+to\\s+(?:about\\s+|around\\s+|roughly\\s+|just\\s+)?(?:[$€£]?\\d|zero\\b)',
      '\\b(?:down|up)\\s+from\\s+[$€£]?\\d',
      '\\b(?:down|up)\\s+(?:by\\s+)?(?:about\\s+|around\\s+|almost\\s+|nearly\\s+|more than\\s+|over\\s+)?\\d[\\d.,]*\\s*(?:%|percent\\b|per cent\\b)',
      '\\b(?:fell|fall|falls|dropped|drops|declined|decreased|shrank|rose|rises|grew|grows|increased|climbed|jumped|doubled|tripled|halved|cut|cuts|reduced|reduces|lowered|improved|improves|saved|saves|saving)' +
        '(?:\\s+[\\p{L}\'-]+){0,4}?\\s+(?:by\\s+)?(?:about\\s+|around\\s+|almost\\s+|nearly\\s+|more than\\s+|over\\s+)?[$€£]?\\d',
      '\\b(?:fell|dropped|declined|decreased|shrank|rose|grew|increased|climbed|jumped)\\s+to\\s+(?:zero|none|nothing)\\b',
      '\\b\\d[\\d.,]*\\s*(?:%|percent|times)\\s+(?:more|less|fewer|higher|lower|faster|slower|as many|as much)\\b',
    ].join('|'),
    'iu',
  ),
  // A stated weakness, but not another's: "..., which Phishwarden does not" says what a rival lacks.
  weakness: {
    test: (text) => WEAKNESS.test(text.replace(RIVAL_LACKS, '')),
  },
};

/**
 * Whether `sentence` judges as wanting in so many words (PLAIN_WEAKNESS), not only with a word that
 * has other senses: "The main limitation of Lumetric is ..." does, "a platform that shows why users
 * struggle" does not. A rival's gap ("..., which Phishwarden does not") is not read.
 */
export function statesWeaknessPlainly(sentence: string): boolean {
  return PLAIN_WEAKNESS_PATTERN.test(sentence.replace(RIVAL_LACKS, ''));
}

const DIGIT = /\d/;

/** The kinds of answer `sentence` holds, in ANSWER_TYPES order; only those of `among` are tested when given. */
export function sentenceAnswerTypes(sentence: string, among: readonly AnswerType[] = ANSWER_TYPES): AnswerType[] {
  return among.filter((type) => SENTENCE_PATTERNS[type].test(sentence));
}

/**
 * How well a sentence holding `held` answers a topic asking for `wanted`, 0 to 1: 0 when it holds
 * none of the wanted types (or the topic asks for none), otherwise 0.7 plus 0.3 times the share of
 * wanted types it holds. One wanted type held counts most, so a cue read too eagerly in the topic
 * ("implementation services cost" also reads as a duration) costs little; a sentence holding
 * both a price and a trial length still ranks above one holding only the price. Half that when
 * every wanted type it holds is among `faint`: read from words with other senses (a weakness
 * stated only as "struggle" or "issues": `statesWeaknessPlainly`).
 */
export function answerTypeMatch(wanted: readonly AnswerType[], held: readonly AnswerType[], faint: readonly AnswerType[] = []): number {
  let hits = 0;
  let onlyFaint = true;
  for (const type of wanted) {
    if (!held.includes(type)) continue;
    hits++;
    if (!faint.includes(type)) onlyFaint = false;
  }
  if (hits === 0) return 0;
  const match = 0.7 + (0.3 * hits) / wanted.length;
  return onlyFaint ? match / 2 : match;
}

const FIGURE = /[$€£¥]?\s?\d[\d,.]*(?:\s?(?:%|k\b|m\b|bn\b))?(?:\s+(?:percent|million|billion|thousand|euros?|dollars?|people|staff|[a-z]+s)\b)?/gi;

/**
 * The figures of a sentence as distinct tokens ("$60,000", "25 months", "3", "40 percent"):
 * number with its currency sign and unit word, normalized, so "$49" and "$99" are different tokens
 * where a word bag would see the same words. Diversity treats them as words of their own.
 */
export function figures(sentence: string): string[] {
  // Every figure has a digit; most sentences have none.
  if (!DIGIT.test(sentence)) return [];
  const tokens = new Set<string>();
  for (const figure of sentence.match(FIGURE) ?? []) tokens.add(`#${figure.toLowerCase().replace(/\s+/g, '').replace(/[.,]$/, '')}`);
  return [...tokens];
}

/**
 * A stated strength: praise or an advantage ("main strength", "better fit for", "rated higher for",
 * "easy to set up"). Not an answer type a topic asks for (selection does not use it); the
 * competitors table reads it beside the `weakness` cue.
 */
const STRENGTH =
  /\b(?:strengths?|strong(?:er|est)?|best (?:for|at|choice|fit)|better (?:fit|choice|value)|excels?|praised?|lov(?:e|ed|es)|easy to|easier|easiest|fast(?:er|est)?|great (?:value|for)|reliable|rate[sd]? (?:\S+ ){1,3}?higher|higher for|trusted by|wins?|won|leader|paid for itself)\b/i;

/** True when `sentence` states a strength (see STRENGTH). */
export function holdsStrength(sentence: string): boolean {
  return STRENGTH.test(sentence);
}
