/**
 * The fixture sites' servers (test/sites/fixture-sites.ts, scripts/lib/site-server.ts), run in a
 * thread of their own by vitest.config.ts. In the Vitest process's main thread their event loop would
 * wait behind Vitest's own work (module transforms, reporters, the pool's RPC), so on a busy machine
 * a request could be noted (and answered) tens of milliseconds after it arrived, and tests that read
 * the request log's times (politeness: at least a Crawl-delay between two requests) would see gaps
 * that were never there. Here nothing else runs on their loop. Posts the sites' origins once they listen.
 */
import { parentPort } from 'node:worker_threads';
import { startSites } from '../../scripts/lib/site-server.ts';
import { fixtureSites } from '../sites/fixture-sites.ts';

const sites = await startSites(fixtureSites());
parentPort!.postMessage({ overrides: sites.overrides, origins: Object.fromEntries(Object.entries(sites.sites).map(([domain, site]) => [domain, site.origin])) });
