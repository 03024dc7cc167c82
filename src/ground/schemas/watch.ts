import { z } from './openapi.ts';
import { Domain, MAX_POLICY_DOMAINS } from './common.ts';
import { PATH_SCOPE_FIELDS, refineDisjointPaths } from './path-scope.ts';
import { Change, CHANGE_KINDS, MAX_CHANGES_LISTED, type ChangeKind } from './changes.ts';
import { compileIgnore, MAX_IGNORE_PATTERN_CHARS, MAX_IGNORE_PATTERNS } from '../ignore-patterns.ts';

/**
 * Research watches (recurring research on a target, each execution charged its tier's price, never past
 * the watch's cost cap): the create body, its bounds, and the shapes every door
 * answers. One schema for REST and MCP; the operation (operations/watches/watches.ts) adds the checks that
 * need the organization's data (the target's key normalized by its type, and the target existing).
 */

export const WATCH_TIERS = ['lite', 'base'] as const;
export type WatchTier = (typeof WATCH_TIERS)[number];

/** What one execution costs, in micros (millionths of a dollar); also each tier's smallest cap. */
export const TIER_PRICE_MICROS: Record<WatchTier, number> = { lite: 3_000, base: 10_000 };
export const MAX_COST_CAP_MICROS = 100_000_000;
/** The longest webhook URL (as url-policy.ts's WEBHOOK_URL_MAX_LENGTH). */
const WEBHOOK_URL_MAX_CHARS = 2048;

export const WATCH_STATUSES = ['active', 'failing', 'capped', 'cancelled'] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];

/** The object types a watch can target: a brief is written `about` a company (object-types.ts LINKS). */
export const WATCHABLE_TYPES = ['company'] as const;
export type WatchableType = (typeof WATCHABLE_TYPES)[number];

const UNIT_SECONDS = { h: 3_600, d: 86_400, w: 604_800 } as const;
export const MIN_FREQUENCY_SECONDS = 3_600;
export const MAX_FREQUENCY_SECONDS = 30 * 86_400;
const FREQUENCY_PATTERN = /^(\d{1,6})([hdw])$/;

/** The seconds a valid frequency (`6h`, `1d`, `2w`) stands for. */
export function frequencySeconds(frequency: string): number {
  const match = FREQUENCY_PATTERN.exec(frequency);
  if (!match) throw new Error(`not a frequency: ${frequency}`);
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

export const Frequency = z
  .string()
  .trim()
  .regex(FREQUENCY_PATTERN, 'must be a whole number and a unit, h (hours), d (days) or w (weeks), such as 6h, 1d or 2w')
  .refine((value) => {
    // Only a well-formed frequency has bounds to check (the pattern reports the others).
    if (!FREQUENCY_PATTERN.test(value)) return true;
    const seconds = frequencySeconds(value);
    return seconds >= MIN_FREQUENCY_SECONDS && seconds <= MAX_FREQUENCY_SECONDS;
  }, 'must be from 1h to 30d (720h and 4w are the longest in hours and weeks)')
  .describe('How often the watch runs: a whole number and a unit, h, d or w, from 1h to 30d (e.g. "6h", "1d", "2w").');

// A domain written alone: no scheme, path, query, port, credentials or wildcard. Case, a trailing
// dot and a leading `www.` are normalized as everywhere (`Domain`).
const BARE_DOMAIN = /^[^\s/:*?#@\\]+$/;

export const WatchDomain = z
  .string({ error: 'must be a domain such as acme.com' })
  .trim()
  .max(253)
  .refine((value) => BARE_DOMAIN.test(value), 'must be a bare domain such as acme.com, without a scheme, path, port or wildcard')
  .pipe(Domain);

const DomainList = (what: string) =>
  z
    .array(WatchDomain)
    .max(MAX_POLICY_DOMAINS)
    .default([])
    .describe(`${what} (at most ${MAX_POLICY_DOMAINS} bare domains such as "acme.com"; no URLs, paths, ports or wildcards).`);

export const WatchSourcePolicy = z
  .strictObject({
    include: DomainList('Only use sources from these domains; empty means any domain'),
    exclude: DomainList('Never use sources from these domains'),
  })
  .superRefine((policy, ctx) => {
    const included = new Set(policy.include);
    policy.exclude.forEach((domain, index) => {
      if (included.has(domain)) {
        ctx.addIssue({ code: 'custom', path: ['exclude', index], message: `must not also be in include: ${domain} is in both lists; keep it in one` });
      }
    });
  })
  .describe('Which source domains the research may use.');

export const WatchTarget = z
  .strictObject({
    type: z
      .enum(WATCHABLE_TYPES, { error: 'must be "company": only companies can be watched (not a person, source or brief)' })
      .describe('What kind of object to watch: "company" (the only type that can be watched).'),
    key: z.string().trim().min(1).max(2048).describe('Its key: the company domain, e.g. "globex.com" (normalized as on import). A company not yet in your organization is created from it.'),
  })
  .describe('The object to keep fresh, e.g. {"type": "company", "key": "globex.com"}.');

/**
 * Where to POST each execution record. The URL's policy (https to a public host; local http only in
 * development) needs the deployment's configuration, so the operation checks it (watches/webhooks/url-policy.ts).
 */
export const WatchWebhook = z
  .strictObject({
    url: z
      .string()
      .max(WEBHOOK_URL_MAX_CHARS)
      .describe('An https URL on a public host, e.g. "https://hooks.example.com/recon" (http://localhost and 127.0.0.1 only in local development).'),
    kinds: z
      .array(z.enum(CHANGE_KINDS))
      .max(CHANGE_KINDS.length)
      .optional()
      .describe(
        'Optional: send only executions that found a change of one of these kinds (e.g. ["pricing"], so that a price change pages somebody and other changes do not); ' +
          'absent or empty: every execution is sent.',
      ),
  })
  .describe(
    'Optional: after each execution Recon POSTs its record here, signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature) ' +
      "with your organization's secret, shown once (in the answer of the first watch created with a webhook, or by POST /api/v1/oms/webhooks/secret).",
  );

export const CreateWatchInput = z
  .strictObject({
    target: WatchTarget,
    query: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe("What to research each time, 1 to 500 characters; default: the target's name (or key)."),
    frequency: Frequency,
    tier: z.enum(WATCH_TIERS).describe('Research depth and price per execution: "lite" (3000 micros) or "base" (10000 micros).'),
    costCapMicros: z
      .int()
      .min(TIER_PRICE_MICROS.lite)
      .max(MAX_COST_CAP_MICROS)
      .describe('The most the watch may ever spend, in micros: at least 3000 (lite) or 10000 (base), at most 100000000.'),
    sourcePolicy: WatchSourcePolicy.optional(),
    // The read of the target company's site before each execution reads only these paths.
    ...PATH_SCOPE_FIELDS,
    ignore: z
      .array(z.string().max(MAX_IGNORE_PATTERN_CHARS))
      .max(MAX_IGNORE_PATTERNS)
      .default([])
      .describe(
        `Optional: what the watch never reports as a change, besides the built-in rules (dates, times, copyright years, live counters, tokens, cache-busting queries, quoted testimonials): ` +
          `at most ${MAX_IGNORE_PATTERNS} regular expressions of at most ${MAX_IGNORE_PATTERN_CHARS} characters, matched case-insensitively; what they match is masked before pages are compared ` +
          '(e.g. "\\d+ open tickets", "Today\'s special: .*"). A pattern that could take exponential time is refused.',
      ),
    webhook: WatchWebhook.optional(),
  })
  .superRefine((input, ctx) => {
    const compiled = compileIgnore(input.ignore);
    if (!compiled.ok) ctx.addIssue({ code: 'custom', path: ['ignore', compiled.index], message: compiled.message });
  })
  .superRefine((input, ctx) => {
    const min = TIER_PRICE_MICROS[input.tier];
    if (input.costCapMicros < min) {
      ctx.addIssue({ code: 'custom', path: ['costCapMicros'], message: `must be at least ${min} for the ${input.tier} tier (one execution costs ${min})` });
    }
  })
  .superRefine(refineDisjointPaths);
export type CreateWatchInput = z.output<typeof CreateWatchInput>;

/** A watch as every door answers it: one declaration, the type and the OpenAPI component `Watch`. */
export const Watch = z
  .object({
    id: z.string(),
    target: z.object({ type: z.enum(WATCHABLE_TYPES), key: z.string() }),
    query: z.string().nullable().describe("What each execution researches; null: the target's name."),
    frequency: z.string().describe('1h to 30d, e.g. "6h", "1d", "2w".'),
    tier: z.enum(WATCH_TIERS),
    costCapMicros: z.int(),
    spentMicros: z.int().describe('Never above costCapMicros: the tier price times the charged executions.'),
    sourcePolicy: z.object({ include: z.array(z.string()), exclude: z.array(z.string()) }),
    includePaths: z.array(z.string()).describe("Path patterns the read of the target's site before each execution is limited to; empty: every path."),
    excludePaths: z.array(z.string()).describe("Path patterns the read of the target's site before each execution leaves out; empty: none."),
    status: z.enum(WATCH_STATUSES).describe('active; failing after 5 failed executions in a row (a success makes it active); capped when the next execution would pass the cap; cancelled.'),
    executions: z.int().describe('Charged (succeeded) executions.'),
    lastRunAt: z.string().nullable(),
    nextRunAt: z.string().nullable().describe('When the next execution is due; null once capped or cancelled.'),
    createdAt: z.string(),
    updatedAt: z.string(),
    cancelledAt: z.string().nullable(),
    webhook: z
      .object({ url: z.string(), kinds: z.array(z.enum(CHANGE_KINDS)).describe('The change kinds an execution must have found to be sent; empty: every execution.') })
      .nullable()
      .describe("Where each execution record is POSTed, signed with your organization's secret; null: no webhook."),
    ignore: z.array(z.string()).describe("The watch's own ignore patterns (regular expressions masked before pages are compared); empty: the built-in rules only."),
  })
  .openapi('Watch');
export type WatchView = z.output<typeof Watch>;

/** The answer of the create: the watch, and the webhook secret once, when this create made it. */
export const CreatedWatch = Watch.extend({
  webhookSecret: z
    .string()
    .optional()
    .describe("Your organization's webhook signing secret (whsec_...), only in the answer of the create that made it: store it now, it is never shown again."),
}).openapi('CreatedWatch');
export type CreatedWatch = z.output<typeof CreatedWatch>;

type JsonScalar = string | number | boolean | null;
/** A stored property value (JSON; typed two levels deep, which is what Durable Object RPC types can follow). */
export type JsonValue = JsonScalar | JsonScalar[] | { [key: string]: JsonScalar | JsonScalar[] };

export interface PropertyChange {
  property: string;
  /** null when the property was not set before. */
  from: JsonValue;
  to: JsonValue;
}

/** Cited claims a watch execution keeps from its brief (the next execution compares with them). */
export const MAX_CLAIMS_PER_EXECUTION = 100;
/** Characters of a claim's text kept (a longer sentence is cut, and ends with "…"). */
export const MAX_CLAIM_CHARS = 1_000;
/** Claims listed in `findings.added` and in `findings.removed` each (the first ones, in brief order). */
export const MAX_FINDINGS_LISTED = 50;

/** One cited claim of a brief: a sentence it quotes, and the URL of a source it quotes it from. */
export interface Claim {
  text: string;
  url: string;
}

/** How many changes an execution found, listed or not. */
export interface ChangeCounts {
  total: number;
  byKind: Partial<Record<ChangeKind, number>>;
  flips: number;
  pagesCompared: number;
}

/**
 * What changed since the previous succeeded execution: first the company's web (`changes`: its
 * pages, roles and feed entries compared with how they were then), then what the brief cites that
 * the previous brief did not, and the reverse.
 */
export interface ExecutionFindings {
  /** The previous succeeded execution's id; null for the watch's first (its lists are empty). */
  since: string | null;
  changes: Change[];
  changeCounts: ChangeCounts;
  added: Claim[];
  removed: Claim[];
}

/** Counts of no change (a first execution; records made before page changes). */
export function noChangeCounts(): ChangeCounts {
  return { total: 0, byKind: {}, flips: 0, pagesCompared: 0 };
}

const ClaimSchema = z
  .object({
    text: z.string().describe(`The quoted sentence, verbatim (at most ${MAX_CLAIM_CHARS} characters; a longer one is cut and ends with "…").`),
    url: z.string().describe('The source it is quoted from.'),
  })
  .openapi('WatchClaim');

/** The OpenAPI component of `ExecutionFindings`. */
const ChangeCountsSchema = z
  .object({
    total: z.int().describe('Changes found, listed or not.'),
    byKind: z.partialRecord(z.enum(CHANGE_KINDS), z.int()).describe('Changes found per kind (kinds with none left out).'),
    flips: z.int().describe('Sentences that changed back to how they were at most 3 executions before (a page flipping between versions): counted here, never listed.'),
    pagesCompared: z.int().describe('Pages whose text changed and was compared sentence by sentence.'),
  })
  .openapi('WatchChangeCounts');

export const WatchFindings = z
  .object({
    since: z.string().nullable().describe("The previous succeeded execution's id, which this one is compared with; null for the watch's first execution (then every list is empty)."),
    changes: z
      .array(Change)
      .describe(
        `What the company changed on its web since that execution, from the pages its site read found: prices, sentences added and removed, pages new and gone, roles opened and closed, new feed entries; ` +
          `those matching the watch's query first, then by kind (pricing first); at most ${MAX_CHANGES_LISTED}.`,
      ),
    changeCounts: ChangeCountsSchema,
    added: z.array(ClaimSchema).describe(`Cited claims of this brief the previous one did not have, in this brief's order (at most ${MAX_FINDINGS_LISTED}).`),
    removed: z.array(ClaimSchema).describe(`Cited claims of the previous brief this one no longer has, in its order (at most ${MAX_FINDINGS_LISTED}).`),
  })
  .describe(
    "What changed: the company's web first (`changes`), then what the brief cites (`added`, `removed`: claims compared by their text, case, spacing and Unicode forms ignored, and source URL). " +
      'null on a failed execution and on records made before findings existed.',
  )
  .openapi('WatchFindings');

/** One execution of a watch: what it found and changed, and what it cost. */
export interface ExecutionRecord {
  id: string;
  watchId: string;
  startedAt: string;
  finishedAt: string;
  outcome: 'succeeded' | 'failed';
  costMicros: number;
  briefKey: string | null;
  changes: PropertyChange[];
  /** What changed in the claims its brief cites; null when it failed (and on records made before findings existed, as read). */
  findings: ExecutionFindings | null;
  /**
   * The read of the target company's site that ran before the research (its run and how it ended);
   * null when none ran (not a company, a site this deployment does not read, or refused); absent on
   * failed executions and on records made before site reads.
   */
  siteRead?: { runId: string; status: string } | null;
  error?: string;
  /** How its webhook delivery went (only on watches with a webhook; never part of the payload sent). */
  webhook?: WebhookDeliveryState;
}

/** A webhook message's delivery: pending (attempts so far, the next one due at nextAttemptAt), delivered, or given up after the last attempt. */
export interface WebhookDeliveryState {
  state: 'pending' | 'delivered' | 'gave_up';
  attempts: number;
  /** The receiver's last HTTP status, or null when it never answered. */
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
}
