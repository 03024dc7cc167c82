import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { DomainError } from './ground/errors.ts';
import type { AppEnv } from './env.ts';
import { accessLog } from './middleware/access-log.ts';
import { apiKeyAuth } from './middleware/api-key-auth.ts';
import { apiCors } from './middleware/cors.ts';
import { discardBody } from './middleware/discard-body.ts';
import { toHttpResponse } from './middleware/error-response.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { otherCommand } from './routes/commands.ts';
import { mountOperations } from './routes/operations.ts';
import { OPERATIONS, restRateBucket } from './operations/registry/index.ts';
import { dnsRebindingCheck, mcp, mcpErrorResponse } from './routes/mcp.ts';
import { oauth } from './routes/oauth.ts';
import { health } from './routes/health.ts';
import { bot } from './routes/bot.ts';
import { serveOpenApi } from './routes/openapi.ts';
import { dashboard } from './dashboard/index.tsx';
import { MAX_BODY_BYTES, MAX_IMPORT_BYTES } from './ground/body-limits.ts';

export { MAX_BODY_BYTES, MAX_IMPORT_BYTES };

// WWW-Authenticate: browser MCP clients read the OAuth challenge of a 401 from /api/mcp.
const EXPOSED_HEADERS = ['X-Request-Id', 'X-Run-Id', 'X-Audit-Id', 'X-Run-Status', 'Retry-After', 'Location', 'WWW-Authenticate'];

const app = new OpenAPIHono<AppEnv>();

// Liveness first, so the middleware below never runs for it (its handler answers without next()):
// it carries its request id and pays for nothing else (issue 16: within 10% of a bare Worker).
app.route('/healthz', health);

app.use(requestId());
app.use(accessLog());
// Not overwriting: the dashboard sets its own stricter headers (CSP, X-Frame-Options DENY).
app.use(securityHeaders());
app.use('/api/*', apiCors(EXPOSED_HEADERS));

function limitBodyTo(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: async (c) => {
      await discardBody(c.req.raw);
      const size = maxSize >= 1024 * 1024 ? `${maxSize / 1024 / 1024} MiB` : `${maxSize / 1024} KiB`;
      throw new DomainError('payload_too_large', `Request body exceeds ${size}; send less, or split it.`);
    },
  });
}
const limitBody = limitBodyTo(MAX_BODY_BYTES);
const limitImportBody = limitBodyTo(MAX_IMPORT_BYTES);

// Public, before the key middleware of /api/v1: the OpenAPI document and its interactive reference.
serveOpenApi(app);

const v1 = new OpenAPIHono<AppEnv>();
v1.use(apiKeyAuth(), rateLimit(restRateBucket));
v1.use((c, next) => (c.req.path === '/api/v1/oms/objects/import' ? limitImportBody : limitBody)(c, next));
// Every REST operation, declared once in src/operations/registry/.
mountOperations(v1, OPERATIONS);
app.route('/api/v1', v1);

// The MCP door: DNS-rebinding check first, then the same keys (or an OAuth access token, src/oauth/) and body limit; it picks its rate bucket from the JSON-RPC call.
// Its refusals are JSON-RPC error bodies (set before mounting: hono wraps the routes when mounted).
const mcpDoor = new Hono<AppEnv>();
mcpDoor.onError(mcpErrorResponse);
mcpDoor.use(dnsRebindingCheck(), apiKeyAuth({ oauth: true }), limitBody);
mcpDoor.route('/', mcp);
app.route('/api/mcp', mcpDoor);

// OAuth for MCP clients that cannot send a key: metadata, token and registration endpoints (the
// authorize step is the dashboard's consent page).
app.route('/', oauth);

// Public: the page about ReconBot, the site reader, that its user agent names.
app.route('/', bot);

// The dashboard for people (sessions, not keys); same-origin only: no CORS, CSRF-checked forms.
app.route('/dashboard', dashboard);

app.notFound(
  (c) =>
    otherCommand(c) ??
    toHttpResponse(new DomainError('not_found', `No route ${c.req.method} ${c.req.path}; see GET /api/v1/openapi.json.`), c),
);
app.onError(toHttpResponse);

export default app;
