import { inject } from 'vitest';

/**
 * The loopback web server of test/global-setup/fixture-pages.ts, and a fetch for tests that keeps
 * every request on loopback whatever the code under test asks for.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    fixturePagesOrigin: string;
  }
}

/** `http://127.0.0.1:<port>`: the fixture server. */
export function fixtureOrigin(): string {
  return inject('fixturePagesOrigin');
}

/** The URL of a fixture page, e.g. fixturePage('/zephyr-pricing'). */
export function fixturePage(path: string): string {
  return `${fixtureOrigin()}${path}`;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A fetch that only ever reaches the fixture server. Requests to a loopback host go as they are;
 * requests to a host named in `names` (a public-looking name such as pages.example.com, for code
 * under test that refuses loopback) go to the fixture server instead, path and query kept; any
 * other request is not sent at all: it is recorded in `refused` and fails. So a guard that fails
 * lets a request through to this fetch, never to the network, and the test sees it in `refused`.
 */
export function loopbackFetch(names: readonly string[] = []) {
  const refused: string[] = [];
  const requested: string[] = [];
  const origin = new URL(fixtureOrigin());
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requested.push(url.href);
    if (names.includes(url.host)) {
      url.protocol = origin.protocol;
      url.host = origin.host;
    } else if (!LOOPBACK.has(url.hostname)) {
      refused.push(url.href);
      throw new Error(`the test fetch refused ${url.href}: not loopback`);
    }
    return fetch(url, init);
  }) as typeof fetch;
  return { fetch: fetcher, refused, requested };
}
