/**
 * The web research provider: Parallel's Task API (https://docs.parallel.ai).
 *
 * One research call is one task run: `POST /v1/tasks/runs` (the tier is the processor, the source
 * policy is passed through, the output is a text schema asking for a cited markdown brief), then
 * `GET /v1/tasks/runs/{run_id}/result`, which blocks server-side for up to `?timeout=` seconds and
 * answers 408 while the run is still active, so it is asked again until the overall deadline.
 *
 * Honesty: findings are never taken from the model-written `output.content`. They are whole
 * sentences cut out of the citation excerpts in `output.basis`, which Parallel attributes to a
 * source URL; every finding's sentence is a substring of its source's `newSources` content.
 *
 * Every failure is a `ProviderError` whose `kind` tells the caller what happened, so it can fall
 * back to the embedded engine with a visible note. Messages never contain the API key.
 */
import { z } from 'zod';
import { domainOf, SourceKey } from '../oms/object-types.ts';
import type { Finding, ResearchProvider, ResearchRequest, ResearchResult, ResearchSource } from './provider.ts';
import { isCitable, splitSentences } from './text.ts';
import { messageOf } from '../ground/errors.ts';

export type ProviderErrorKind = 'unauthorized' | 'rate_limited' | 'unavailable' | 'timeout' | 'malformed';

/** A web provider failed; `message` is fit to show a person and never contains credentials. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  /** The provider's HTTP status, when the failure was an HTTP answer. */
  readonly status?: number;

  constructor(kind: ProviderErrorKind, message: string, status?: number) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

export interface ParallelProviderOptions {
  /** The Parallel API key (the `PARALLEL_API_KEY` secret), sent as `x-api-key`. */
  apiKey: string;
  /** Default `https://api.parallel.ai`. */
  baseUrl?: string;
  /** Default the global `fetch`; tests pass a fake of the HTTP contract. */
  fetch?: typeof fetch;
  /** How to wait between attempts and polls. Default a timer; tests pass an instant one. */
  sleep?: (ms: number) => Promise<void>;
  /** Limit for one HTTP call, in ms. Default 30 000. */
  timeoutMs?: number;
  /** Limit for the whole research call (create, wait, retries), in ms. Default 120 000. */
  deadlineMs?: number;
  /** Attempts per HTTP call when it fails with 429, 5xx, a network error or a timeout. Default 3. */
  maxAttempts?: number;
}

const PROCESSOR: Record<ResearchRequest['tier'], string> = { lite: 'lite', base: 'base' };
const MAX_FINDINGS: Record<ResearchRequest['tier'], number> = { lite: 6, base: 12 };
const MAX_FINDINGS_PER_SOURCE = 3;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 16_000;
/** Pause between result polls, in case the server answers "still running" without blocking. */
const POLL_PAUSE_MS = 1_000;
/** The server-side wait asked of the result endpoint stays this far inside the HTTP timeout. */
const SERVER_WAIT_MARGIN_MS = 5_000;

const OUTPUT_DESCRIPTION =
  'A research brief in Markdown on research_topic, for a B2B sales team. requester_company says who ' +
  'the team is and whom it sells to, and requester_notes (when present) what it cares about: use them ' +
  'to choose what matters, not as facts to report. Use short sections with headings and bullet points. ' +
  'State only what web sources say and cite a source for every claim; prefer recent, primary sources ' +
  "(the subject's own site, filings, reputable press). Do not speculate.";

// Response shapes, as documented at https://docs.parallel.ai/api-reference/tasks/create-task-run.md
// and https://docs.parallel.ai/api-reference/tasks/retrieve-task-run-result.md. Only what is used
// is checked; unknown fields are ignored, so additions on Parallel's side do not break us.
const ErrorResponse = z.object({
  type: z.literal('error'),
  error: z.object({ message: z.string(), ref_id: z.string().optional() }),
});

const TaskRun = z.object({
  run_id: z.string().min(1),
  status: z.enum(['queued', 'action_required', 'running', 'completed', 'failed', 'cancelling', 'cancelled']),
  is_active: z.boolean(),
  error: z.object({ message: z.string() }).nullish(),
});
type TaskRun = z.infer<typeof TaskRun>;

const Citation = z.object({
  url: z.string(),
  title: z.string().nullish(),
  excerpts: z.array(z.string()).nullish(),
});

const FieldBasis = z.object({ field: z.string(), citations: z.array(Citation).default([]) });

const TaskRunResult = z.object({
  run: TaskRun,
  output: z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), content: z.string(), basis: z.array(FieldBasis) }),
    z.object({ type: z.literal('json'), content: z.record(z.string(), z.unknown()), basis: z.array(FieldBasis) }),
  ]),
});
type TaskRunResult = z.infer<typeof TaskRunResult>;

/** One HTTP answer the caller wants to see (2xx, or a status it handles itself). */
interface Reply {
  status: number;
  body: unknown;
}

/** Time spent on one research call: real time, and at least the time it chose to wait. */
class Budget {
  private readonly start = Date.now();
  private slept = 0;

  constructor(
    readonly limitMs: number,
    private readonly sleepFn: (ms: number) => Promise<void>,
  ) {}

  remaining(): number {
    return this.limitMs - Math.max(Date.now() - this.start, this.slept);
  }

  async sleep(ms: number): Promise<void> {
    this.slept += ms;
    await this.sleepFn(ms);
  }
}

export class ParallelProvider implements ResearchProvider {
  readonly name = 'parallel';
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;
  private readonly sleepFn: (ms: number) => Promise<void>;
  private readonly timeoutMs: number;
  private readonly deadlineMs: number;
  private readonly maxAttempts: number;

  constructor(options: ParallelProviderOptions) {
    if (!options.apiKey?.trim()) {
      throw new ProviderError('unauthorized', 'No Parallel API key is configured: set the PARALLEL_API_KEY secret.');
    }
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'https://api.parallel.ai').replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleepFn = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? 30_000);
    this.deadlineMs = positive('deadlineMs', options.deadlineMs ?? 120_000);
    this.maxAttempts = Math.floor(positive('maxAttempts', options.maxAttempts ?? 3));
  }

  async research(request: ResearchRequest): Promise<ResearchResult> {
    const budget = new Budget(this.deadlineMs, this.sleepFn);
    const run = await this.createRun(request, budget);
    const result = await this.awaitResult(run.run_id, budget);
    return toResearchResult(result, request);
  }

  private async createRun(request: ResearchRequest, budget: Budget): Promise<TaskRun> {
    const reply = await this.send('POST', '/v1/tasks/runs', taskRunInput(request), budget);
    const run = this.parse(TaskRun, reply.body, 'the created task run');
    if (run.status === 'failed' || run.status === 'cancelled') throw this.runEnded(run);
    return run;
  }

  private async awaitResult(runId: string, budget: Budget): Promise<TaskRunResult> {
    const path = `/v1/tasks/runs/${encodeURIComponent(runId)}/result`;
    for (;;) {
      const remaining = budget.remaining();
      if (remaining <= 0) {
        throw new ProviderError('timeout', `Parallel did not finish the research within ${seconds(this.deadlineMs)} s.`);
      }
      const serverWait = Math.max(1, Math.floor((Math.min(this.timeoutMs, remaining) - SERVER_WAIT_MARGIN_MS) / 1000));
      // 408 is the documented "request timed out; run still active" answer: ask again.
      const reply = await this.send('GET', `${path}?timeout=${serverWait}`, undefined, budget, [408]);
      if (reply.status !== 408) {
        const result = this.parse(TaskRunResult, reply.body, 'the task run result');
        if (result.run.status === 'completed') return result;
        if (result.run.status === 'failed' || result.run.status === 'cancelled') throw this.runEnded(result.run);
      }
      await budget.sleep(Math.min(POLL_PAUSE_MS, Math.max(0, budget.remaining())));
    }
  }

  /**
   * One API call with retries: 429, 5xx, network errors and timeouts are tried again (up to
   * `maxAttempts`, exponential backoff, `Retry-After` honoured) while the deadline allows; other
   * statuses fail at once. Statuses in `pass` are returned to the caller instead.
   */
  private async send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    budget: Budget,
    pass: readonly number[] = [],
  ): Promise<Reply> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(method, path, body, budget, pass);
      if (!('error' in outcome)) return outcome;
      const { error, retryable, retryAfterMs } = outcome;
      if (!retryable || attempt >= this.maxAttempts) throw error;
      const delay = retryAfterMs ?? Math.min(BACKOFF_BASE_MS * 2 ** (attempt - 1), BACKOFF_MAX_MS);
      if (delay >= budget.remaining()) {
        throw new ProviderError(error.kind, `${error.message} No time was left to try again.`, error.status);
      }
      await budget.sleep(delay);
    }
  }

  private async attempt(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    budget: Budget,
    pass: readonly number[],
  ): Promise<Reply | { error: ProviderError; retryable: boolean; retryAfterMs?: number }> {
    const remaining = budget.remaining();
    if (remaining <= 0) {
      return { error: new ProviderError('timeout', `Parallel did not answer within ${seconds(this.deadlineMs)} s.`), retryable: false };
    }
    const limit = Math.min(this.timeoutMs, remaining);
    const signal = AbortSignal.timeout(limit);
    const headers: Record<string, string> = { 'x-api-key': this.apiKey, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';

    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) {
        return { error: new ProviderError('timeout', `Parallel did not answer within ${seconds(limit)} s.`), retryable: true };
      }
      const reason = messageOf(error);
      return { error: new ProviderError('unavailable', `Parallel could not be reached: ${this.redact(reason)}.`), retryable: true };
    }

    const { status } = response;
    if ((status >= 200 && status < 300) || pass.includes(status)) {
      if (status >= 300) return { status, body: undefined };
      try {
        return { status, body: JSON.parse(text) as unknown };
      } catch {
        return { error: new ProviderError('malformed', `Parallel answered HTTP ${status} with a body that is not JSON.`, status), retryable: false };
      }
    }

    const detail = this.errorDetail(text);
    if (status === 401 || status === 403) {
      return { error: new ProviderError('unauthorized', `Parallel refused the API key (HTTP ${status})${detail}.`, status), retryable: false };
    }
    if (status === 429) {
      return {
        error: new ProviderError('rate_limited', `Parallel is rate-limiting requests (HTTP 429)${detail}.`, status),
        retryable: true,
        retryAfterMs: retryAfter(response.headers.get('retry-after')),
      };
    }
    if (status === 408) {
      return { error: new ProviderError('timeout', `Parallel timed out (HTTP 408)${detail}.`, status), retryable: true };
    }
    if (status >= 500) {
      return {
        error: new ProviderError('unavailable', `Parallel is unavailable (HTTP ${status})${detail}.`, status),
        retryable: true,
        retryAfterMs: retryAfter(response.headers.get('retry-after')),
      };
    }
    return { error: new ProviderError('unavailable', `Parallel rejected the request (HTTP ${status})${detail}.`, status), retryable: false };
  }

  /** The provider's own error message and reference, from its documented ErrorResponse, if any. */
  private errorDetail(text: string): string {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return '';
    }
    const parsed = ErrorResponse.safeParse(json);
    if (!parsed.success) return '';
    const { message, ref_id: ref } = parsed.data.error;
    return `: ${this.redact(message.slice(0, 300))}${ref ? ` (ref ${this.redact(ref.slice(0, 64))})` : ''}`;
  }

  private parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new ProviderError('malformed', `Parallel sent ${what} in an unexpected shape${where}: ${this.redact(issue?.message ?? 'invalid')}.`);
  }

  private runEnded(run: TaskRun): ProviderError {
    const reason = run.error?.message ? `: ${this.redact(run.error.message.slice(0, 300))}` : '';
    return new ProviderError('unavailable', `The Parallel research run ${run.status === 'failed' ? 'failed' : 'was cancelled'}${reason}.`);
  }

  private redact(text: string): string {
    return text.replaceAll(this.apiKey, '[redacted]');
  }
}

/** The documented TaskRunInput: the topic and the organization's context, a text output schema, the source policy. */
function taskRunInput(request: ResearchRequest): Record<string, unknown> {
  const { profile, sourcePolicy } = request;
  const icp = compact({
    industries: profile.icp.industries,
    company_sizes: profile.icp.companySizes,
    regions: profile.icp.regions,
    personas: profile.icp.personas,
  });
  const company = compact({ name: profile.companyName, offering: profile.offering, ideal_customer_profile: icp });
  const notes = request.userContext?.trim();
  const policy = compact({ include_domains: sourcePolicy.include, exclude_domains: sourcePolicy.exclude });
  return {
    input: compact({ research_topic: request.topic, requester_notes: notes, requester_company: company }),
    processor: PROCESSOR[request.tier],
    task_spec: { output_schema: { type: 'text', description: OUTPUT_DESCRIPTION } },
    ...(policy ? { source_policy: policy } : {}),
  };
}

/** The object without empty strings, empty arrays or empty objects; undefined when nothing is left. */
function compact<T extends Record<string, unknown>>(fields: T): Partial<T> | undefined {
  const kept = Object.entries(fields).filter(([, value]) => {
    if (value === undefined || value === null || value === '') return false;
    return !Array.isArray(value) || value.length > 0;
  });
  return kept.length ? (Object.fromEntries(kept) as Partial<T>) : undefined;
}

interface CitedSource {
  source: ResearchSource;
  excerpts: string[];
}

/** Findings, sources and new sources, all from the citation excerpts Parallel attributes to a URL. */
function toResearchResult(result: TaskRunResult, request: ResearchRequest): ResearchResult {
  // A cited URL without excerpts gives nothing to quote or store, so it is not listed either:
  // every source of the result is one of its newSources, and every `cites` link has a target.
  const allCited = citedSources(result, request.sourcePolicy);
  const cited = allCited.filter(({ excerpts }) => excerpts.length > 0);
  const queues = cited.map(({ excerpts }) => excerpts.flatMap(wholeSentences));
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const cap = MAX_FINDINGS[request.tier];
  // Round-robin over sources, one sentence each per round, so a brief rests on several sources.
  for (let round = 0; round < MAX_FINDINGS_PER_SOURCE && findings.length < cap; round++) {
    queues.forEach((queue, source) => {
      while (findings.length < cap && queue.length) {
        const sentence = queue.shift() as string;
        const key = sentence.toLowerCase().replace(/\s+/g, ' ');
        if (seen.has(key)) continue;
        seen.add(key);
        findings.push({ sentence, source });
        break;
      }
    });
  }
  const newSources = cited.map(({ source, excerpts }) => ({ source, content: excerpts.join('\n\n') }));
  const count = allCited.length;
  const note =
    findings.length > 0
      ? undefined
      : count > 0
        ? `Parallel cited ${count} web source${count === 1 ? '' : 's'} but returned no whole sentences from them to quote.`
        : 'Parallel returned no cited web sources.';
  return {
    findings,
    sources: cited.map(({ source }) => source),
    engine: 'parallel',
    newSources,
    ...(note ? { note } : {}),
  };
}

/** Cited http(s) URLs in order of first citation, deduplicated, with their distinct excerpts; outside the policy dropped. */
function citedSources(result: TaskRunResult, policy: ResearchRequest['sourcePolicy']): CitedSource[] {
  const byUrl = new Map<string, CitedSource>();
  for (const basis of result.output.basis) {
    for (const citation of basis.citations) {
      const url = parseUrl(citation.url);
      if (!url || !allowedByPolicy(domainOf(url.href), policy)) continue;
      let entry = byUrl.get(url.href);
      if (!entry) {
        const domain = domainOf(url.href);
        entry = { source: { url: url.href, title: citation.title?.trim() || domain, domain }, excerpts: [] };
        byUrl.set(url.href, entry);
      } else if (entry.source.title === entry.source.domain && citation.title?.trim()) {
        entry.source.title = citation.title.trim();
      }
      for (const excerpt of citation.excerpts ?? []) {
        if (excerpt.trim() && !entry.excerpts.includes(excerpt)) entry.excerpts.push(excerpt);
      }
    }
  }
  return [...byUrl.values()];
}

/** A cited URL as a source key (SourceKey: http(s) only, no fragment, no credentials), or undefined. */
function parseUrl(raw: string): URL | undefined {
  const key = SourceKey.safeParse(raw);
  return key.success ? new URL(key.data) : undefined;
}

/** The documented matching: a domain covers its subdomains; a non-empty include list wins over exclude. */
function allowedByPolicy(hostname: string, policy: ResearchRequest['sourcePolicy']): boolean {
  const matches = (domain: string) => hostname === domain || hostname.endsWith(`.${domain}`);
  if (policy.include.length) return policy.include.some(matches);
  return !policy.exclude.some(matches);
}

const NON_PROSE_LINE = /^\s*(#|\||```|>|(?:[-*_]\s*){3,}$)/;
const ELISION = /\.{3,}|…|\[\.\.\.\]/g;
const LIST_MARKER = /^(?:[-*•+]|\d{1,3}[.)])\s+/;

/**
 * Whole sentences of an excerpt, each an exact substring of it. Excerpts are cut from pages, so
 * headings, tables and quotes are skipped, elisions ("...") end a passage, and a candidate must
 * start like a sentence (capital, digit or opening quote) and end with . ! or ?.
 */
export function wholeSentences(excerpt: string): string[] {
  const sentences: string[] = [];
  for (const passage of prosePassages(excerpt)) {
    for (const raw of splitSentences(passage)) {
      const sentence = raw.replace(LIST_MARKER, '');
      if (/^["'“‘(]?[\p{Lu}\p{N}]/u.test(sentence) && isCitable(sentence) && excerpt.includes(sentence)) {
        sentences.push(sentence);
      }
    }
  }
  return sentences;
}

/** Runs of prose lines, split at elisions: slices of `text`, never rebuilt. */
function prosePassages(text: string): string[] {
  const passages: string[] = [];
  let start = -1;
  let offset = 0;
  const flush = (end: number) => {
    if (start >= 0) passages.push(...splitAtElisions(text.slice(start, end)));
    start = -1;
  };
  for (const line of text.split('\n')) {
    if (!line.trim() || NON_PROSE_LINE.test(line)) flush(offset);
    else if (start < 0) start = offset;
    offset += line.length + 1;
  }
  flush(text.length);
  return passages;
}

function splitAtElisions(passage: string): string[] {
  return passage.split(ELISION).filter((part) => part.trim());
}

/** `Retry-After` as ms: delta-seconds or an HTTP date. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`ParallelProvider: ${name} must be a positive number.`);
  return value;
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
