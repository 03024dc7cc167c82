import fc from 'fast-check';
import { inject } from 'vitest';

/**
 * The seed of every property run: fixed by default so a run is reproducible, overridden by
 * RECON_FUZZ_SEED (an integer) to explore: `RECON_FUZZ_SEED=123 npm run test:reliability`.
 * A failure prints the seed and fast-check's path, which replay it exactly.
 */
export const DEFAULT_SEED = 20261124;

declare module 'vitest' {
  export interface ProvidedContext {
    fuzzSeed: string;
  }
}

export function fuzzSeed(): number {
  const given = inject('fuzzSeed');
  if (!given) return DEFAULT_SEED;
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`RECON_FUZZ_SEED must be an integer, not ${JSON.stringify(given)}`);
  return seed;
}

/** fast-check parameters of every property: the seed, `numRuns`, no shrinking. */
export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  // endOnFailure: each shrinking step is a request; the first counterexample, with the seed and path, is enough to replay.
  return { seed: fuzzSeed(), numRuns, endOnFailure: true, interruptAfterTimeLimit: 80_000, markInterruptAsFailure: true, verbose: 0, includeErrorInReport: false };
}

/** Counts of inputs tried, printed at the end of each file (the README quotes them). */
export class Tally {
  private readonly counts = new Map<string, number>();
  add(label: string, n = 1): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + n);
  }
  get(label: string): number {
    return this.counts.get(label) ?? 0;
  }
  total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  labels(): string[] {
    return [...this.counts.keys()];
  }
  /** One `[reliability]` line, which the config shows even when the test passes. */
  print(suite: string): void {
    console.log(`[reliability] ${suite}: ${this.total()} inputs tried over ${this.counts.size} targets (seed ${fuzzSeed()})`);
  }
}
