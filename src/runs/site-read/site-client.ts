import type { GateAnswer, SiteHostGate } from '../../durable-objects/site-host-gate.ts';
import { readConfig } from '../../ground/config.ts';
import { fetchSitePage, type SitePage, type SitePageOptions } from '../../sites/fetch-page.ts';
import { SITE_READER_USER_AGENT } from '../../sites/robots.ts';
import { sleep } from './state.ts';

/** At most this many requests to one site at once. */
export const SITE_REQUESTS_IN_FLIGHT = 2;
/**
 * What every request of one read shares: where it goes and how it is paced. Each request first takes
 * a start from the site's SiteHostGate (at most SITE_REQUESTS_IN_FLIGHT at once, and `gapMs` after
 * the previous start and the previous answer, across every step and slice of every read of the
 * site, whichever organization's), and gives it back when its answer is in.
 */
class SiteClient {
  readonly #gapMs: number;
  readonly #gate: DurableObjectStub<SiteHostGate>;

  constructor(
    env: Env,
    readonly domain: string,
    readonly options: Pick<SitePageOptions, 'originOverrides' | 'fetch' | 'timeoutMs'>,
    minDelayMs: number,
    crawlDelaySeconds: number | undefined,
  ) {
    this.#gapMs = Math.max(minDelayMs, (crawlDelaySeconds ?? 0) * 1000);
    this.#gate = env.SITE_GATES.get(env.SITE_GATES.idFromName(domain));
  }

  /**
   * Requests `url` in its turn. When the answer is in, the gap runs from then too: a Worker's clock
   * stands still while it computes, so the start a turn claimed may lie a little before the request
   * really left; an answer's time never lies before its request reached the site.
   */
  async request(url: string, extra: Partial<SitePageOptions> = {}): Promise<SitePage> {
    let answer: GateAnswer = await this.#gate.acquire(this.#gapMs, SITE_REQUESTS_IN_FLIGHT);
    while (answer.lease === null) {
      await sleep(answer.retryInMs);
      answer = await this.#gate.acquire(this.#gapMs, SITE_REQUESTS_IN_FLIGHT);
    }
    const { lease, waitMs } = answer;
    await sleep(waitMs);
    try {
      return await fetchSitePage(url, { domain: this.domain, userAgent: SITE_READER_USER_AGENT, ...this.options, ...extra });
    } finally {
      // The next start waits the gap after this answer too; a lease not given back frees itself after LEASE_MS.
      await this.#gate.release(lease).catch(() => {});
    }
  }
}

export function clientFor(env: Env, domain: string, crawlDelaySeconds: number | undefined): SiteClient {
  const config = readConfig(env);
  return new SiteClient(env, domain, { originOverrides: config.SITE_ORIGIN_OVERRIDES, timeoutMs: config.SITE_READ_PAGE_TIMEOUT_MS }, config.SITE_READ_MIN_DELAY_MS, crawlDelaySeconds);
}

