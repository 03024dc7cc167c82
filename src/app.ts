import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import type { AppEnv } from './env.ts';
import { accessLog } from './middleware/access-log.ts';
import { apiKeyAuth } from './middleware/api-key-auth.ts';
import { BOOKMARK_HEADER, bookmarkHeader } from './middleware/bookmark-header.ts';
import { limitBody } from './middleware/body-limit.ts';
import { apiCors } from './middleware/cors.ts';
import { toHttpResponse } from './middleware/error-response.ts';
import { requestId } from './middleware/request-id.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { noOperation, noRoute } from './routes/no-operation.ts';
import { mountOperations } from './routes/operations.ts';
import { OPERATIONS } from './operations/index.ts';
import { dnsRebindingCheck, mcp, mcpErrorResponse } from './routes/mcp.ts';
import { oauth } from './routes/oauth.ts';
import { health } from './routes/health.ts';
import { bot } from './routes/bot.ts';
import { serveOpenApi } from './routes/openapi.ts';
import { dashboard } from './dashboard/index.tsx';
import { MAX_BODY_BYTES, MAX_IMPORT_BYTES } from './ground/body-limits.ts';

export { MAX_BODY_BYTES, MAX_IMPORT_BYTES };

// WWW-Authenticate: browser MCP clients read the OAuth challenge of a 401 from /api/mcp.
const EXPOSED_HEADERS = ['X-Request-Id', 'X-Run-Id', 'X-Audit-Id', 'X-Run-Status', 'Retry-After', 'Location', 'WWW-Authenticate', BOOKMARK_HEADER];

const app = new OpenAPIHono<AppEnv>();

// Liveness first, so the middleware below never runs for it (its handler answers without next()):
// it carries its request id and pays for nothing else (issue 16: within 10% of a bare Worker).
app.route('/healthz', health);

app.use(requestId());
app.use(accessLog());
// Not overwriting: the dashboard sets its own stricter headers (CSP, X-Frame-Options DENY).
app.use(securityHeaders());
app.use('/api/*', apiCors(EXPOSED_HEADERS));

// Public, before the key middleware of /api/v1: the OpenAPI document and its interactive reference.
serveOpenApi(app);

const v1 = new OpenAPIHono<AppEnv>();
// The key, then the D1 bookmark the client sent (and the one sent back: read-your-writes).
v1.use(apiKeyAuth(), bookmarkHeader());
// Every REST operation, declared once in src/operations/: its route spends the rate bucket the
// operation declares, then reads the body within the limit it declares (src/routes/operations.ts).
mountOperations(v1, OPERATIONS);
// Last: a request that reached no operation spends a token all the same, then is 404.
v1.all('/*', noOperation);
app.route('/api/v1', v1);

// The MCP door: DNS-rebinding check first, then the same keys (or an OAuth access token, src/oauth/) and body limit; it picks its rate bucket from the JSON-RPC call.
// Its refusals are JSON-RPC error bodies (set before mounting: hono wraps the routes when mounted).
const mcpDoor = new Hono<AppEnv>();
mcpDoor.onError(mcpErrorResponse);
mcpDoor.use(dnsRebindingCheck(), apiKeyAuth({ oauth: true }), limitBody(MAX_BODY_BYTES));
mcpDoor.route('/', mcp);
app.route('/api/mcp', mcpDoor);

// OAuth for MCP clients that cannot send a key: metadata, token and registration endpoints (the
// authorize step is the dashboard's consent page).
app.route('/', oauth);

// Public: the page about ReconBot, the site reader, that its user agent names.
app.route('/', bot);

// The dashboard for people (sessions, not keys); same-origin only: no CORS, CSRF-checked forms.
app.route('/dashboard', dashboard);

app.notFound(noRoute);
app.onError(toHttpResponse);

export default app;
