/**
 * Local development's fixed secrets: `npm run dev`, the tests and the e2e servers use these; a
 * deployment sets its own with `wrangler secret put` (docs/deploy.md).
 */

/** Signs the state of questions asked in MCP clients (src/mcp/questions.ts). */
export const DEV_REQUEST_STATE_SECRET = 'recon-development-request-state-secret-not-for-production';
