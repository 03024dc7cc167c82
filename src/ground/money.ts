/**
 * Money in micros (millionths of a US dollar, how watch prices, caps and spend are kept), written
 * for people: `90,000 micros ($0.0900)`. Reports and tool answers use it; the dashboard shows
 * dollars alone (`formatDollars`).
 */
export function formatMicros(micros: number): string {
  return `${micros.toLocaleString('en-US')} micros ($${(micros / 1_000_000).toFixed(4)})`;
}

/** Micros as dollars: `$0.09`, with up to six decimals when the amount needs them. */
export function formatDollars(micros: number): string {
  return DOLLARS.format(micros / 1_000_000);
}

const DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });
