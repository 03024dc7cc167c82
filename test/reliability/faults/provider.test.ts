import fc from 'fast-check';
import { env } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedEngine } from '../../../src/research/embedded-engine.ts';
import { ParallelProvider, ProviderError } from '../../../src/research/parallel-provider.ts';
import type { ResearchRequest } from '../../../src/research/provider.ts';
import { researchWithFallback } from '../../../src/research/providers.ts';
import { createOrganization, FINISHED_PROFILE } from '../../helpers/fixtures.ts';
import { importMarket } from '../../helpers/market.ts';
import { changedTables, dataSnapshot, FAULT_SEED, Tally } from './support/faults.ts';
import { answersArbitrary, expectedOutcome, FakeParallel, PARALLEL_KEY } from './support/parallel.ts';

/**
 * The web research provider under random fault schedules: every call of Parallel's API may time
 * out, answer 429, 408, 500, 503, 401, an HTML page, JSON of the wrong shape or a cut-off body, or
 * drop the connection, in any order. The provider must end in its documented outcome (a retry,
 * or a ProviderError of the right kind that names no key), and research as the commands and
 * watches run it must always answer: from the web when the provider recovers, from the embedded
 * engine with a visible note when it does not, writing nothing either way.
 */

const tally = new Tally('web provider');
afterAll(() => tally.print());

function provider(fake: FakeParallel): ParallelProvider {
  // An instant sleep (the backoff is policy, not time to spend here) and a short per-call timeout, so a hang costs 25 ms.
  return new ParallelProvider({ apiKey: PARALLEL_KEY, fetch: fake.fetch, sleep: async () => {}, timeoutMs: 25 });
}

describe('the web research provider under random fault schedules', () => {
  it('ends in a retry or a clean ProviderError, as the contract and its retry policy say; research falls back and writes nothing', { timeout: 120_000 }, async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const request: ResearchRequest = {
      organizationId: org.id,
      topic: 'Globex pricing',
      tier: 'lite',
      sourcePolicy: { include: [], exclude: [] },
      profile: FINISHED_PROFILE,
    };
    const before = await dataSnapshot();
    await fc.assert(
      fc.asyncProperty(answersArbitrary(), async (script) => {
        tally.schedules++;
        const expected = expectedOutcome(script);

        // The provider alone: its outcome is the one the contract and its policy give.
        const alone = new FakeParallel();
        alone.script = [...script];
        const outcome = await provider(alone).research(request).then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        if (expected === 'ok') {
          expect(outcome.ok, String(!outcome.ok && outcome.error)).toBe(true);
          if (outcome.ok) {
            expect(outcome.result.engine).toBe('parallel');
            expect(outcome.result.findings.length).toBeGreaterThan(0);
          }
        } else {
          expect(outcome.ok).toBe(false);
          if (!outcome.ok) {
            expect(outcome.error).toBeInstanceOf(ProviderError);
            expect((outcome.error as ProviderError).kind).toBe(expected);
            expect((outcome.error as Error).message).not.toContain(PARALLEL_KEY);
          }
        }
        // Bounded: at most three attempts per call, and the script's answers plus one create and one result.
        expect(alone.calls).toBeLessThanOrEqual(script.length + 2);

        // Research as commands and watches run it: always an answer.
        const fallback = new FakeParallel();
        fallback.script = [...script];
        const result = await researchWithFallback([provider(fallback), new EmbeddedEngine(env.DB)], request);
        if (expected === 'ok') {
          expect(result.engine).toBe('parallel');
          expect(result.note).toBeUndefined();
        } else {
          expect(result.engine).toBe('embedded');
          expect(result.note).toMatch(/^The parallel research provider could not answer \(.+\)\. This brief comes from the embedded engine instead\.$/);
          expect(result.note).not.toContain(PARALLEL_KEY);
          expect(result.findings.length).toBeGreaterThan(0);
        }
        tally.fault('provider answer', alone.faults + fallback.faults);
      }),
      { seed: FAULT_SEED, numRuns: 150 },
    );
    // Research alone writes nothing, whatever the provider answered.
    expect(changedTables(before, await dataSnapshot())).toEqual([]);
  });
});
