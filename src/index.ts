/**
 * Recon's Worker entry: the Hono app serves REST under /api/v1 and MCP at /api/mcp; `/healthz` is
 * answered here, ahead of the app (routes/health.ts). Durable Object classes are re-exported here so
 * the runtime can find them.
 */
import app from './app.ts';
import { healthResponse } from './routes/health.ts';

export { RunObject } from './runs/run-object.ts';
export { WatchObject } from './watches/watch-object.ts';
export { SiteHostGate } from './sites/site-host-gate.ts';

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    return healthResponse(request) ?? app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
