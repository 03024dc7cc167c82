import type { Context } from 'hono';
import { MAX_BODY_BYTES } from '../ground/body-limits.ts';
import { DomainError } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { toHttpResponse } from '../middleware/error-response.ts';
import { spendRateLimit } from '../operations/call.ts';
import { refuseUnknownCommand } from '../operations/commands/command-operations.ts';
import { readJsonObject } from './json-body.ts';

const COMMANDS_PATH = '/api/v1/commands/';
const OTHER_COMMAND = /^\/api\/v1\/commands\/([^/]+)$/;
const bounded = limitBody(MAX_BODY_BYTES);

/**
 * The last route under /api/v1: a request (with a key) that reached no operation's route. It spends
 * a token as a call would, and within the same body limit:
 *
 * - a POST under /api/v1/commands/ is a call of a command by a name none has: a `commands` token,
 *   then, for one name, the core answers 404 naming the commands (after the key's scope, as for a
 *   known command); it is not in the document, as it only ever refuses. A `/commands/:name` route
 *   beside the commands' own would make Hono give up its RegExp router for the slower trie router on
 *   every request (11% of a REST read's CPU in a profile), and `/commands/*` would match
 *   `/commands` too, so the path is read here;
 * - anything else spends a `reads` token and is 404.
 */
export async function noOperation(c: Context<AppEnv>): Promise<Response> {
  const command = c.req.method === 'POST' && c.req.path.startsWith(COMMANDS_PATH);
  const ctx = await spendRateLimit(c.get('core'), command ? 'commands' : 'reads');
  await bounded(c, async () => {});
  const match = command ? OTHER_COMMAND.exec(c.req.path) : null;
  if (!match) return noRoute(c);
  let name = match[1]!;
  try {
    name = decodeURIComponent(name);
  } catch {
    // Malformed percent-encoding: the name as sent, which no command has.
  }
  await readJsonObject(c);
  return refuseUnknownCommand(ctx, name);
}

/** 404 for a request no route answers, naming where the routes are listed. */
export function noRoute(c: Context<AppEnv>): Response {
  return toHttpResponse(new DomainError('not_found', `No route ${c.req.method} ${c.req.path}; see GET /api/v1/openapi.json.`), c);
}
