/**
 * Recon's Worker entry: the Hono app serves REST under /api/v1 and MCP at /api/mcp. Durable Object
 * classes are re-exported here as they arrive.
 */
import app from './app.ts';

export default app;
