import fc from 'fast-check';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { TIER_PRICE_MICROS } from '../../src/ground/schemas/watch.ts';
import type { TestOrganization } from '../helpers/fixtures.ts';
import { createWith, executionsOf, marketOrganization, stubOf, untilExecutions } from './helpers.ts';

let org: TestOrganization;

beforeAll(async () => {
  org = await marketOrganization();
});

describe('the cap, over random caps, tiers and failures', () => {
  it('spentMicros never passes the cap, equals price x successful executions, and the watch is capped exactly when the next would pass it', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('lite' as const, 'base' as const),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 9_999 }),
        fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
        async (tier, extraExecutions, remainder, failures) => {
          const price = TIER_PRICE_MICROS[tier];
          const cap = price * (1 + extraExecutions) + (remainder % price);
          let call = 0;
          const id = await createWith(
            org,
            (real) => async (...args) => {
              // The first executions fail as drawn; after those, the provider answers.
              if (failures[call++]) throw new Error('provider down');
              return real(...args);
            },
            { tier, costCapMicros: cap },
          );
          await untilExecutions(id, 1);
          for (let i = 0; i < 60; i++) {
            const watch = (await stubOf(id).get())!;
            const succeeded = (await executionsOf(id)).filter((e) => e.outcome === 'succeeded');
            expect(watch.spentMicros).toBeLessThanOrEqual(cap);
            expect(watch.spentMicros).toBe(price * succeeded.length);
            expect(watch.executions).toBe(succeeded.length);
            expect(watch.status === 'capped').toBe(watch.spentMicros + price > cap);
            if (watch.status === 'capped') break;
            await stubOf(id).runNow();
          }
          const end = (await stubOf(id).get())!;
          expect(end.status).toBe('capped');
          expect(end.spentMicros).toBe(price * Math.floor(cap / price));
          const outcome = await stubOf(id).runNow();
          expect(outcome).toMatchObject({ ran: false, refusal: 'capped' });
          const row = await env.DB.prepare('SELECT spent_micros, status FROM watches WHERE id = ?').bind(id).first();
          expect(row).toEqual({ spent_micros: end.spentMicros, status: 'capped' });
        },
      ),
      { numRuns: 25 },
    );
  });
});
