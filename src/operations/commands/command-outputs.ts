import { z } from 'zod';
import { RUN_KINDS, RUN_STATUSES } from '../../ground/run-kinds.ts';
import { withoutCredentials } from '../../ground/url-credentials.ts';
import type { ResearchSource } from '../../research/provider.ts';

/**
 * What the commands answer as data beside their markdown (an MCP tool's structured content; REST
 * answers the markdown only, as the interface fixes). Each is built by the same core call that
 * renders the markdown, from what the engines know: nothing here is parsed back out of markdown.
 */

/** A source a claim cites, as the research engine knows it. */
export const ClaimSource = z.object({
  url: z.string().describe("The source's URL: its key in the knowledge base (oms-get {\"type\": \"source\", \"key\": url})."),
  title: z.string(),
  domain: z.string(),
  publishedAt: z.string().optional().describe('YYYY-MM-DD, when the source is dated.'),
});
export type ClaimSource = z.output<typeof ClaimSource>;

/**
 * A cited source as claims name it. Its URL without credentials: source keys are stored without
 * them, and one stored before they were (a `?token=` kept in the key) is never shown with its token.
 */
export function claimSource({ url, title, domain, publishedAt }: ResearchSource): ClaimSource {
  return { url: withoutCredentials(url), title, domain, ...(publishedAt ? { publishedAt } : {}) };
}

export const ResearchClaim = z.object({
  text: z
    .string()
    .describe(
      'The claim: a sentence quoted verbatim from each of its sources. The claim and the quoted sentence it rests on are the same text (Recon states only what its sources say), so there is no separate quote.',
    ),
  answer: z.boolean().describe('True for the one the brief gives as its Answer.'),
  sources: z.array(ClaimSource).min(1).describe('Every source that states the sentence word for word; the first is the one it was chosen from.'),
});

/** The research command's data: the stored brief and its claims, in the markdown's reading order. */
export const ResearchOutput = z.object({
  brief: z.string().describe('The key of the stored brief object (oms-get {"type": "brief", "key": ...}; MCP resource recon://briefs/{key}).'),
  topic: z.string(),
  tier: z.enum(['lite', 'base']),
  engine: z.enum(['embedded', 'parallel']),
  note: z.string().optional().describe('A note for the reader, e.g. that the web provider failed and the embedded engine answered.'),
  claims: z.array(ResearchClaim).describe('Empty when nothing in the sources matches the topic.'),
});
export type ResearchOutput = z.output<typeof ResearchOutput>;

export const CompetitorClaim = z.object({
  company: z.string().describe('The key (domain) of the company the claim is about.'),
  kind: z
    .enum(['competition', 'price', 'strength', 'weakness'])
    .describe('competition: the strongest sentence that compares it with the analysed company; price, strength, weakness: the table cells.'),
  text: z.string().describe('The claim: a verbatim source sentence (competition) or the verbatim part of one that is about the company (a cell).'),
  quote: z
    .string()
    .optional()
    .describe('The whole source sentence the text is cut from; absent when the text is the whole sentence (then the text is the quote).'),
  sources: z.array(ClaimSource).length(1).describe('The source the sentence is quoted from.'),
});

/** The competitors command's data: the analysed company, the ranked competitors and every quoted claim. */
export const CompetitorsOutput = z.object({
  company: z.object({ key: z.string(), name: z.string().optional() }).describe('The analysed company.'),
  competitors: z
    .array(
      z.object({
        rank: z.int().min(1),
        key: z.string(),
        name: z.string().optional(),
        evidence: z.int().min(0).describe('How many sentences in your sources compare it with the analysed company.'),
        knownFrom: z.array(z.enum(['profile', 'link'])).describe('Where else it is known from: your sales profile, a stored competitors link.'),
      }),
    )
    .describe('Ranked by evidence; empty when none is known.'),
  claims: z.array(CompetitorClaim).describe('In the table\'s order: the analysed company\'s cells, then each competitor\'s cells and strongest evidence.'),
});
export type CompetitorsOutput = z.output<typeof CompetitorsOutput>;
export type CompetitorClaim = z.output<typeof CompetitorClaim>;

/** The help command's data: the catalog's commands (their argument schemas are the tools' inputSchema). */
export const CatalogOutput = z.object({
  commands: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      mode: z.enum(['sync', 'async']),
      description: z.string(),
      requiresOnboarding: z.boolean(),
      example: z.record(z.string(), z.unknown()).describe('Valid arguments.'),
    }),
  ),
});
export type CatalogOutput = z.output<typeof CatalogOutput>;

/**
 * A finished site read's report as data (SiteReadReport in src/sites/read/report-data.ts). Its
 * fields are named here, not typed one by one: the schema sits in the output of every tool that
 * starts a run (a task's result is the run as polled), and tools/list is read by every client.
 */
const SiteReadReportOutput = z
  .looseObject({ domain: z.string(), hosts: z.array(z.string()) })
  .describe(
    'A finished site read: domain, budget, hosts, robots (per host), sitemaps, pages (requested, new, changed, unchanged, notModified, gone, skipped, failed), documents, rendered, needsBrowser, noindex, nofollow, canonical, feeds, jobBoards, pushback (refusals, retryAt), stopped, complete (every page it found was read).',
  );

/** A run as polled (run-status), and as the result of a task that ran it to its end. */
export const RunStatusOutput = z.object({
  runId: z.string(),
  kind: z.enum(RUN_KINDS),
  status: z.enum(RUN_STATUSES),
  retryAfterSeconds: z.number().optional().describe('While running: when to poll again.'),
  siteRead: SiteReadReportOutput.optional(),
});

/** What a command that starts a run answers as data: the run and how to poll it. */
export const StartedRunOutput = z.object({
  runId: z.string(),
  kind: z.enum(RUN_KINDS),
  status: z.literal('running'),
  poll: z.object({
    tool: z.literal('run-status'),
    arguments: z.object({ kind: z.enum(RUN_KINDS), id: z.string() }),
  }),
});

/**
 * What a tool that starts a run answers: the started run, or, called as a task (2025-11-25), the
 * task's result, the run as polled once it ended.
 */
export const RunStartOutput = z.union([StartedRunOutput, RunStatusOutput]);
