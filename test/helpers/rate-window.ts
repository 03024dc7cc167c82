/**
 * The rate limiting binding counts in windows aligned to the wall clock (every 60 s for our
 * limits), so a burst that straddles a boundary would be counted in two windows. Start each burst
 * early in a window (waiting at most `burstMs`), so a test always counts in exactly one.
 */
export async function startEarlyInWindow(burstMs: number, periodMs = 60_000): Promise<void> {
  const left = periodMs - (Date.now() % periodMs);
  if (left < burstMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
