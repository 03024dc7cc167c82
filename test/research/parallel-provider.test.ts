import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ParallelProvider, ProviderError, wholeSentences, type ParallelProviderOptions } from '../../src/research/parallel-provider.ts';
import type { ResearchRequest, ResearchResult } from '../../src/research/provider.ts';
import { FINISHED_PROFILE as PROFILE } from '../helpers/fixtures.ts';

const KEY = 'prl-test-Zq7x93kLmN0pQ';
const BASE = 'https://api.parallel.ai';

function request(overrides: Partial<ResearchRequest> = {}): ResearchRequest {
  return {
    organizationId: 'org_test',
    topic: 'Globex pricing',
    tier: 'base',
    sourcePolicy: { include: [], exclude: [] },
    profile: PROFILE,
    ...overrides,
  };
}

// --- A local fake of Parallel's Task API, checking requests as the documented contract does ---
// (https://docs.parallel.ai/api-reference/tasks/create-task-run.md,
//  https://docs.parallel.ai/api-reference/tasks/retrieve-task-run-result.md)

const SourcePolicy = z.strictObject({
  include_domains: z.array(z.string()).optional(),
  exclude_domains: z.array(z.string()).optional(),
  after_date: z.string().nullish(),
});
const Schema = z.union([
  z.string(),
  z.strictObject({ type: z.literal('text').default('text'), description: z.string().nullish() }),
  z.strictObject({ type: z.literal('json').default('json'), json_schema: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('auto') }),
]);
const TaskRunInput = z.strictObject({
  processor: z.string(),
  input: z.union([z.string(), z.record(z.string(), z.unknown())]),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
  source_policy: SourcePolicy.nullish(),
  task_spec: z.strictObject({ output_schema: Schema, input_schema: Schema.nullish() }).nullish(),
  previous_interaction_id: z.string().nullish(),
  enable_events: z.boolean().nullish(),
});
const PROCESSORS = new Set(['lite', 'base', 'core', 'core2x', 'pro', 'ultra']);

interface Citation {
  url: string;
  title?: string | null;
  excerpts?: string[] | null;
}

type Answer = Response | 'hang' | 'network-error';

interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ type: 'error', error: { ref_id: 'fcb2b4f3-c75e-4186-87bc-caa1a8381331', message } }, { status, headers });
}

function taskRun(runId: string, status: string, processor: string) {
  const now = '2025-04-23T20:21:48.037943Z';
  return { run_id: runId, interaction_id: runId, status, is_active: status !== 'completed', processor, metadata: null, created_at: now, modified_at: now };
}

class FakeParallel {
  readonly calls: Recorded[] = [];
  /** Answers given before the contract's own, per route, in order. */
  readonly script: { create: Answer[]; result: Answer[] } = { create: [], result: [] };
  /** How many result calls answer 408 "still active" before the run completes. */
  stillRunning = 0;
  basis: { field: string; reasoning: string; citations: Citation[] }[] = [{ field: 'output', reasoning: 'From the pricing page.', citations: [] }];
  content = '# Globex pricing\n\nGlobex is the market leader and costs too much.';
  private readonly runs = new Map<string, string>();

  cite(...citations: Citation[]): this {
    this.basis = [{ field: 'output', reasoning: 'Cited.', citations }];
    return this;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const text = req.method === 'POST' ? await req.text() : '';
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    this.calls.push({ method: req.method, path: url.pathname, query: url.searchParams, headers: req.headers, body });

    const route = req.method === 'POST' && url.pathname === '/v1/tasks/runs' ? 'create' : 'result';
    const scripted = this.script[route].shift();
    if (scripted === 'hang') return hang(init?.signal);
    if (scripted === 'network-error') throw new TypeError('Network connection lost.');
    if (scripted) return scripted;

    if (url.origin !== BASE) return new Response('no such host', { status: 502 });
    if (req.headers.get('x-api-key') !== KEY) return errorResponse(401, 'Unauthorized: invalid or missing credentials');

    if (route === 'create') {
      if (!req.headers.get('content-type')?.startsWith('application/json')) return errorResponse(422, 'Unprocessable content: request validation error');
      const parsed = TaskRunInput.safeParse(body);
      if (!parsed.success) return errorResponse(422, 'Unprocessable content: request validation error');
      if (!PROCESSORS.has(parsed.data.processor)) return errorResponse(403, 'Forbidden: invalid processor in request');
      const policy = parsed.data.source_policy;
      if ((policy?.include_domains?.length ?? 0) + (policy?.exclude_domains?.length ?? 0) > 200) {
        return errorResponse(422, 'Unprocessable content: request validation error');
      }
      const runId = `trun_${this.runs.size + 1}`;
      this.runs.set(runId, parsed.data.processor);
      return Response.json(taskRun(runId, 'queued', parsed.data.processor), { status: 202 });
    }

    const match = /^\/v1\/tasks\/runs\/([^/]+)\/result$/.exec(url.pathname);
    if (req.method !== 'GET' || !match) return errorResponse(404, 'Not found');
    const timeout = url.searchParams.get('timeout');
    if (timeout !== null && !/^\d+$/.test(timeout)) return errorResponse(422, 'Request validation error');
    const processor = this.runs.get(decodeURIComponent(match[1] ?? ''));
    if (!processor) return errorResponse(404, 'Run failed or run id not found');
    if (this.stillRunning > 0) {
      this.stillRunning--;
      return errorResponse(408, 'Request timed out; run still active');
    }
    return Response.json({
      run: taskRun(match[1] ?? '', 'completed', processor),
      output: { type: 'text', content: this.content, basis: this.basis },
    });
  };

  requests(method: string): Recorded[] {
    return this.calls.filter((call) => call.method === method);
  }
}

/** A fetch that never answers: it only ends when its signal aborts, as a real stalled fetch would. */
function hang(signal: AbortSignal | null | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason));
  });
}

function provider(fake: FakeParallel, options: Partial<ParallelProviderOptions> = {}) {
  const sleeps: number[] = [];
  const instance = new ParallelProvider({
    apiKey: KEY,
    fetch: fake.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { instance, sleeps };
}

async function failure(promise: Promise<ResearchResult>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const PRICING = {
  url: 'https://www.globex.com/pricing#plans',
  title: 'Globex Pricing',
  excerpts: [
    'Globex Cloud costs $49 per seat per month, billed annually. The Team plan adds SSO and audit logs for every workspace. ... enterprise pricing is available on',
    '## Plans\n- The Starter plan is free for up to three users.\n| Plan | Price |\n| --- | --- |',
  ],
};
const REVIEW = {
  url: 'https://reviews.example.org/globex',
  title: null,
  excerpts: ['Reviewers say Globex onboarding takes about two weeks on average. Globex Cloud costs $49 per seat per month, billed annually.'],
};

describe('ParallelProvider (against a local fake of the Task API contract)', () => {
  it('creates a task run with the documented body and x-api-key, then fetches its result', async () => {
    const fake = new FakeParallel().cite(PRICING);
    const { instance } = provider(fake);
    await instance.research(
      request({
        userContext: 'We compete with Globex on mid-market deals',
        sourcePolicy: { include: ['globex.com', 'g2.com'], exclude: ['reddit.com'] },
      }),
    );

    const [create, result] = fake.calls;
    expect(fake.calls).toHaveLength(2);
    expect(create?.method).toBe('POST');
    expect(create?.path).toBe('/v1/tasks/runs');
    expect(create?.headers.get('x-api-key')).toBe(KEY);
    expect(create?.headers.get('content-type')).toBe('application/json');
    expect(create?.body).toEqual({
      processor: 'base',
      input: {
        research_topic: 'Globex pricing',
        requester_notes: 'We compete with Globex on mid-market deals',
        requester_company: {
          name: 'Acme Analytics',
          offering: 'Product analytics for B2B SaaS teams',
          ideal_customer_profile: { industries: ['SaaS'], company_sizes: ['51-200'], regions: ['North America'], personas: ['VP Product'] },
        },
      },
      task_spec: { output_schema: { type: 'text', description: expect.stringMatching(/Markdown[\s\S]*cite a source for every claim/) } },
      source_policy: { include_domains: ['globex.com', 'g2.com'], exclude_domains: ['reddit.com'] },
    });

    expect(result?.method).toBe('GET');
    expect(result?.path).toBe('/v1/tasks/runs/trun_1/result');
    expect(result?.headers.get('x-api-key')).toBe(KEY);
    // The server-side wait stays inside the 30 s per-call limit.
    expect(Number(result?.query.get('timeout'))).toBe(25);
  });

  it('maps the lite tier to the lite processor and omits an empty source policy', async () => {
    const fake = new FakeParallel().cite(PRICING);
    await provider(fake).instance.research(request({ tier: 'lite' }));
    const body = fake.calls[0]?.body as Record<string, unknown>;
    expect(body.processor).toBe('lite');
    expect(body).not.toHaveProperty('source_policy');
    expect(body.input).not.toHaveProperty('requester_notes');
  });

  it('builds findings only from whole sentences of the cited excerpts, never from the written output', async () => {
    const fake = new FakeParallel();
    fake.basis = [
      { field: 'output', reasoning: 'Pricing page.', citations: [PRICING, { url: 'not a url', excerpts: ['Globex was founded in 1999 by two engineers.'] }] },
      {
        field: 'output',
        reasoning: 'Reviews.',
        citations: [REVIEW, { url: 'https://www.globex.com/pricing', title: 'Globex Pricing', excerpts: [PRICING.excerpts[0] as string] }],
      },
      { field: 'output', reasoning: 'No excerpts.', citations: [{ url: 'https://news.example.com/globex-raises', title: 'Globex raises $20M' }] },
    ];
    const result = await provider(fake).instance.research(request());

    expect(result.engine).toBe('parallel');
    expect(result.sources).toEqual([
      { url: 'https://www.globex.com/pricing', title: 'Globex Pricing', domain: 'globex.com' },
      { url: 'https://reviews.example.org/globex', title: 'reviews.example.org', domain: 'reviews.example.org' },
    ]);
    expect(result.findings).toEqual([
      { sentence: 'Globex Cloud costs $49 per seat per month, billed annually.', source: 0 },
      { sentence: 'Reviewers say Globex onboarding takes about two weeks on average.', source: 1 },
      { sentence: 'The Team plan adds SSO and audit logs for every workspace.', source: 0 },
      { sentence: 'The Starter plan is free for up to three users.', source: 0 },
    ]);
    // Nothing from output.content, and no fragment or uncited claim.
    const sentences = result.findings.map((finding) => finding.sentence).join('\n');
    expect(sentences).not.toMatch(/market leader|enterprise pricing|founded in 1999/);

    // New sources: each cited source with its excerpts, deduplicated. A citation without excerpts
    // (news.example.com) gives nothing to quote or store, so it is neither a source nor a new source.
    expect(result.newSources).toEqual([
      { source: result.sources[0], content: PRICING.excerpts.join('\n\n') },
      { source: result.sources[1], content: REVIEW.excerpts[0] },
    ]);
    for (const finding of result.findings) {
      const source = result.sources[finding.source];
      const stored = result.newSources?.find((entry) => entry.source.url === source?.url);
      expect(stored?.content).toContain(finding.sentence);
    }
    expect(result.note).toBeUndefined();
  });

  it('caps findings by tier (lite 6, base 12) and at 3 per source, spreading them over sources', async () => {
    const sources = Array.from({ length: 5 }, (_, s) => ({
      url: `https://site${s}.example.com/page`,
      title: `Site ${s}`,
      excerpts: [Array.from({ length: 5 }, (_, n) => `Site ${s} reports fact number ${n} about the Globex pricing model.`).join(' ')],
    }));
    for (const [tier, cap] of [['lite', 6], ['base', 12]] as const) {
      const result = await provider(new FakeParallel().cite(...sources)).instance.research(request({ tier }));
      expect(result.findings).toHaveLength(cap);
      const perSource = new Map<number, number>();
      for (const finding of result.findings) perSource.set(finding.source, (perSource.get(finding.source) ?? 0) + 1);
      expect(Math.max(...perSource.values())).toBeLessThanOrEqual(3);
      expect(perSource.size).toBe(5);
    }
  });

  it('drops cited sources outside the source policy', async () => {
    const fake = new FakeParallel().cite(PRICING, REVIEW);
    const result = await provider(fake).instance.research(request({ sourcePolicy: { include: [], exclude: ['example.org'] } }));
    expect(result.sources.map((source) => source.domain)).toEqual(['globex.com']);
  });

  it('drops credentials from cited URLs before they become sources', async () => {
    const fake = new FakeParallel().cite({ ...PRICING, url: 'https://user:s3cret@www.globex.com/pricing' });
    const result = await provider(fake).instance.research(request());
    expect(result.sources).toEqual([{ url: 'https://www.globex.com/pricing', title: 'Globex Pricing', domain: 'globex.com' }]);
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });

  it('says so in a note when the cited sources give nothing to quote', async () => {
    const fake = new FakeParallel().cite({ url: 'https://globex.com/', title: 'Globex', excerpts: ['...and more'] });
    const result = await provider(fake).instance.research(request());
    expect(result.findings).toEqual([]);
    expect(result.note).toMatch(/no whole sentences/);
  });

  it('retries a 429 after the Retry-After it was given, then succeeds', async () => {
    const fake = new FakeParallel().cite(PRICING);
    fake.script.create.push(errorResponse(429, 'Too many requests: quota temporarily exceeded', { 'Retry-After': '7' }));
    const { instance, sleeps } = provider(fake);
    const result = await instance.research(request());
    expect(fake.requests('POST')).toHaveLength(2);
    expect(sleeps).toEqual([7_000]);
    expect(result.findings.length).toBeGreaterThan(0);
  });

  it('gives up after maxAttempts 5xx answers with exponential backoff: unavailable', async () => {
    const fake = new FakeParallel();
    fake.script.create.push(errorResponse(503, 'Service unavailable'), errorResponse(500, 'Internal error'), errorResponse(502, 'Bad gateway'));
    const { instance, sleeps } = provider(fake);
    const error = await failure(instance.research(request()));
    expect(error.kind).toBe('unavailable');
    expect(error.status).toBe(502);
    expect(fake.requests('POST')).toHaveLength(3);
    expect(sleeps).toEqual([1_000, 2_000]);
  });

  it('retries a network error', async () => {
    const fake = new FakeParallel().cite(PRICING);
    fake.script.result.push('network-error');
    const { instance, sleeps } = provider(fake);
    await instance.research(request());
    expect(fake.requests('GET')).toHaveLength(2);
    expect(sleeps).toEqual([1_000]);
  });

  it('does not retry a refused API key: unauthorized', async () => {
    const fake = new FakeParallel();
    const wrongKey = 'prl-wrong-Hh48sd0QwE';
    const { instance, sleeps } = provider(fake, { apiKey: wrongKey });
    const error = await failure(instance.research(request()));
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/invalid or missing credentials/);
    expect(error.message).not.toContain(wrongKey);
    expect(fake.calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry other 4xx answers, such as a failed run', async () => {
    const fake = new FakeParallel();
    fake.script.result.push(errorResponse(404, 'Run failed or run id not found'));
    const { instance, sleeps } = provider(fake);
    const error = await failure(instance.research(request()));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/Run failed/);
    expect(fake.requests('GET')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('aborts a call that never answers and, once retries are spent, fails with timeout', async () => {
    const fake = new FakeParallel();
    fake.script.create.push('hang', 'hang');
    const { instance } = provider(fake, { timeoutMs: 25, maxAttempts: 2 });
    const error = await failure(instance.research(request()));
    expect(error.kind).toBe('timeout');
    expect(fake.requests('POST')).toHaveLength(2);
  });

  it('asks for the result again while the run is still active (408), until it completes', async () => {
    const fake = new FakeParallel().cite(PRICING);
    fake.stillRunning = 3;
    const { instance } = provider(fake);
    const result = await instance.research(request());
    expect(fake.requests('GET')).toHaveLength(4);
    expect(result.findings.length).toBeGreaterThan(0);
  });

  it('stops waiting at the overall deadline: timeout', async () => {
    const fake = new FakeParallel();
    fake.stillRunning = Number.POSITIVE_INFINITY;
    const { instance } = provider(fake, { deadlineMs: 5_000 });
    const error = await failure(instance.research(request()));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/within 5 s/);
    expect(fake.requests('GET').length).toBeGreaterThanOrEqual(4);
  });

  it('refuses answers of the wrong shape: malformed', async () => {
    const noRunId = new FakeParallel();
    noRunId.script.create.push(Response.json({ id: 'trun_1', status: 'queued' }, { status: 202 }));
    expect((await failure(provider(noRunId).instance.research(request()))).kind).toBe('malformed');

    const noBasis = new FakeParallel();
    noBasis.script.result.push(Response.json({ run: taskRun('trun_1', 'completed', 'base'), output: { type: 'text', content: 'Brief' } }));
    const error = await failure(provider(noBasis).instance.research(request()));
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/output\.basis/);

    const notJson = new FakeParallel();
    notJson.script.result.push(new Response('<html>Bad gateway</html>', { status: 200 }));
    expect((await failure(provider(notJson).instance.research(request()))).kind).toBe('malformed');
    expect(noRunId.calls.length + noBasis.requests('GET').length + notJson.requests('GET').length).toBe(3);
  });

  it('never puts the API key in an error message, even when the provider echoes it', async () => {
    const scripts: Answer[][] = [
      [errorResponse(422, `Invalid header x-api-key=${KEY}`)],
      [errorResponse(500, `upstream failed for ${KEY}`), errorResponse(500, `upstream failed for ${KEY}`), errorResponse(500, `upstream failed for ${KEY}`)],
      [errorResponse(429, `quota for ${KEY}`), errorResponse(429, `quota for ${KEY}`), errorResponse(429, `quota for ${KEY}`)],
    ];
    for (const script of scripts) {
      const fake = new FakeParallel();
      fake.script.create.push(...script);
      const error = await failure(provider(fake).instance.research(request()));
      expect(error.message).not.toContain(KEY);
      expect(error.message).toContain('[redacted]');
      expect(JSON.stringify(error)).not.toContain(KEY);
    }
  });

  it('fails fast without an API key', () => {
    expect(() => new ParallelProvider({ apiKey: '' })).toThrow(ProviderError);
  });
});

describe('wholeSentences', () => {
  it('keeps only whole sentences, each an exact substring of the excerpt', () => {
    const excerpt =
      '...with a 14-day trial. Plans start at $49 per month for five users.\n' +
      '## Pricing FAQ\n' +
      '1. Annual billing saves about 20 percent on every plan.\n' +
      '> "Best tool we ever bought," says a customer quote here.\n' +
      'Dr. Smith leads the research team at Globex since 2021. The company also';
    const sentences = wholeSentences(excerpt);
    expect(sentences).toEqual([
      'Plans start at $49 per month for five users.',
      'Annual billing saves about 20 percent on every plan.',
      'Dr. Smith leads the research team at Globex since 2021.',
    ]);
    for (const sentence of sentences) expect(excerpt).toContain(sentence);
  });
});
