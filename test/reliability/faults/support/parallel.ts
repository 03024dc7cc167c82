import fc from 'fast-check';

/**
 * The outside world of the web research provider: a fake of Parallel's Task API as documented
 * (https://docs.parallel.ai/api-reference/tasks/create-task-run.md and
 * .../retrieve-task-run-result.md), which answers each call from a fault script first, then as the
 * contract says: create answers 202 with a queued task run, the result endpoint 200 with the
 * completed run and a text output whose basis cites excerpts.
 */

export const PARALLEL_KEY = 'prl-fault-Zq7x93kLmN0pQ';
export const PARALLEL_BASE = 'https://api.parallel.ai';

/**
 * One answer of the provider:
 *   ok        what the contract answers
 *   408       "request timed out; run still active" (the result endpoint's documented long-poll answer)
 *   429, 500, 503   the documented ErrorResponse with that status (Retry-After: 0 on 429 and 503)
 *   401       the key refused
 *   html      200 with an HTML page (a proxy's error page)
 *   garbage   200 with JSON of the wrong shape
 *   truncated 200 with JSON cut off mid-way
 *   network   the connection fails
 *   hang      never answers (the caller's timeout ends it)
 */
export type Answer = 'ok' | '408' | '429' | '500' | '503' | '401' | 'html' | 'garbage' | 'truncated' | 'network' | 'hang';

export const ALL_ANSWERS: readonly Answer[] = ['ok', '408', '429', '500', '503', '401', 'html', 'garbage', 'truncated', 'network', 'hang'];

/** A fault script: mostly faults, some ok answers among them. */
export function answersArbitrary(answers: readonly Answer[] = ALL_ANSWERS, maxLength = 7): fc.Arbitrary<Answer[]> {
  return fc.array(fc.constantFrom(...answers), { maxLength });
}

export const CITATION = {
  url: 'https://www.globex.com/pricing',
  title: 'Globex Pricing',
  excerpts: ['Globex Cloud costs $49 per seat per month, billed annually. The Team plan adds SSO and audit logs for every workspace.'],
};

function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ type: 'error', error: { ref_id: 'fcb2b4f3-c75e-4186-87bc-caa1a8381331', message } }, { status, headers });
}

function taskRun(runId: string, status: string) {
  const now = '2026-11-20T10:21:48.037943Z';
  return { run_id: runId, interaction_id: runId, status, is_active: status !== 'completed', processor: 'lite', metadata: null, created_at: now, modified_at: now };
}

export class FakeParallel {
  script: Answer[] = [];
  /** Calls made, and faults answered (anything but `ok` taken from the script). */
  calls = 0;
  faults = 0;
  private runs = 0;

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== PARALLEL_BASE) throw new Error(`the fake Parallel was asked for ${url.origin}`);
    this.calls++;
    const answer = this.script.shift() ?? 'ok';
    if (answer !== 'ok') this.faults++;
    const create = request.method === 'POST' && url.pathname === '/v1/tasks/runs';
    switch (answer) {
      case 'hang':
        return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
      case 'network':
        throw new TypeError('Network connection lost.');
      case '408':
        return errorResponse(408, 'Request timed out; run still active');
      case '429':
        return errorResponse(429, 'Too many requests', { 'retry-after': '0' });
      case '500':
        return errorResponse(500, 'Internal server error');
      case '503':
        return errorResponse(503, 'Service unavailable', { 'retry-after': '0' });
      case '401':
        return errorResponse(401, 'Unauthorized: invalid or missing credentials');
      case 'html':
        return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 200, headers: { 'content-type': 'text/html' } });
      case 'garbage':
        return Response.json(create ? { id: 42, state: 'ok' } : { run: { run_id: 'x' }, output: 'done' });
      case 'truncated':
        return new Response('{"run":{"run_id":"trun_1","status":"comp', { status: 200, headers: { 'content-type': 'application/json' } });
      case 'ok':
        break;
    }
    if (request.headers.get('x-api-key') !== PARALLEL_KEY) return errorResponse(401, 'Unauthorized: invalid or missing credentials');
    if (create) {
      const runId = `trun_${++this.runs}`;
      return Response.json(taskRun(runId, 'queued'), { status: 202 });
    }
    const match = /^\/v1\/tasks\/runs\/([^/]+)\/result$/.exec(url.pathname);
    if (request.method !== 'GET' || !match) return errorResponse(404, 'Not found');
    return Response.json({
      run: taskRun(decodeURIComponent(match[1]!), 'completed'),
      // Each run cites a page of its own, as new web research does: its source is new to the knowledge base.
      output: {
        type: 'text',
        content: '# Globex pricing\n\nGlobex costs $49 per seat.',
        basis: [{ field: 'output', reasoning: 'Cited.', citations: [{ ...CITATION, url: `${CITATION.url}/${match[1]}-${this.calls}` }] }],
      },
    });
  };
}

/**
 * What ParallelProvider must make of a script, by the documented contract and its own stated
 * policy (parallel-provider.ts): each call is tried up to `maxAttempts` times when it fails with
 * 429, 5xx, a network error or a timeout (408 on create included); 401 and answers that are not
 * the documented shape fail at once; the result endpoint's 408 means "ask again". Returns `ok`, or
 * the ProviderError kind it must fail with.
 */
export function expectedOutcome(script: readonly Answer[], maxAttempts = 3): 'ok' | 'unauthorized' | 'rate_limited' | 'unavailable' | 'timeout' | 'malformed' {
  const answers = [...script];
  const next = (): Answer => answers.shift() ?? 'ok';
  const kindOf = (answer: Answer): 'rate_limited' | 'unavailable' | 'timeout' =>
    answer === '429' ? 'rate_limited' : answer === 'hang' || answer === '408' ? 'timeout' : 'unavailable';
  const retryable = (answer: Answer) => ['429', '500', '503', 'network', 'hang', '408'].includes(answer);
  // One call: 'ok', '408' (passed through, result only) or the failure.
  const send = (pass408: boolean): Answer | { fail: ReturnType<typeof expectedOutcome> } => {
    for (let attempt = 1; ; attempt++) {
      const answer = next();
      if (answer === 'ok' || answer === 'html' || answer === 'garbage' || answer === 'truncated') {
        return answer === 'ok' ? 'ok' : { fail: 'malformed' };
      }
      if (answer === '408' && pass408) return '408';
      if (answer === '401') return { fail: 'unauthorized' };
      if (!retryable(answer) || attempt >= maxAttempts) return { fail: kindOf(answer) };
    }
  };
  const created = send(false);
  if (typeof created === 'object') return created.fail;
  for (;;) {
    const result = send(true);
    if (typeof result === 'object') return result.fail;
    if (result === 'ok') return 'ok';
  }
}
