/**
 * Latency statistics for the benchmarks: median and percentiles of a list of samples (ms), and a
 * one-call summary. Percentiles use the nearest-rank method (the value at rank ceil(p/100 * n) of
 * the sorted samples), so a reported p95 is always a latency that was actually observed.
 */

/** The p-th percentile (0 < p <= 100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The median: the mean of the two middle values for an even count. NaN for no samples. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Summary {
  count: number;
  min: number;
  median: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(samples: readonly number[]): Summary {
  const total = samples.reduce((sum, value) => sum + value, 0);
  return {
    count: samples.length,
    min: samples.length ? Math.min(...samples) : Number.NaN,
    median: median(samples),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? Math.max(...samples) : Number.NaN,
    mean: samples.length ? total / samples.length : Number.NaN,
  };
}

/** A latency in ms for a table cell: one decimal below 100 ms, none above. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value < 100 ? value.toFixed(1) : value.toFixed(0);
}
