/**
 * Recon's Worker entry: the Hono app serves REST under /api/v1 and MCP at /api/mcp. Durable Object
 * classes are re-exported here so the runtime can find them.
 */
import app from './app.ts';

export { RunObject } from './durable-objects/run-object.ts';
export default app;
export { WatchObject } from './durable-objects/watch-object.ts';
