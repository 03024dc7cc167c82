import type { RateBucket } from '../../ground/rate-limit.ts';
import type { OperationDefinition } from '../definition.ts';
import { ACTION_OPERATIONS } from './actions.ts';
import { CHANGE_OPERATIONS } from './changes.ts';
import { COMMAND_OPERATIONS } from './commands.ts';
import { OMS_READ_OPERATIONS } from './oms-reads.ts';
import { OMS_WRITE_OPERATIONS } from './oms-writes.ts';
import { PROFILE_OPERATIONS } from './profile.ts';
import { RUN_OPERATIONS } from './runs.ts';
import { WATCH_OPERATIONS } from './watches.ts';

/**
 * Every operation Recon serves, each declared once. The REST routes and the OpenAPI document
 * (routes/operations.ts), the MCP tools and tools/list (mcp/tools/), the rate-limit bucket of
 * each request (below) all come from this list; a new operation is one declaration here plus its
 * function. Its order is the order of tools/list.
 */
export const OPERATIONS: readonly OperationDefinition[] = [
  ...COMMAND_OPERATIONS,
  ...RUN_OPERATIONS,
  ...PROFILE_OPERATIONS,
  ...OMS_WRITE_OPERATIONS,
  ...OMS_READ_OPERATIONS,
  ...ACTION_OPERATIONS,
  ...WATCH_OPERATIONS,
  ...CHANGE_OPERATIONS,
];

/** The REST path prefix of the commands; POST to any other name under it is a command call too (404 in the core). */
const COMMANDS_PREFIX = '/api/v1/commands/';

/** The bucket of each REST operation by `METHOD /api/v1/path`; paths with parameters are matched by pattern. */
const STATIC_BUCKETS = new Map<string, RateBucket>();
const PATTERN_BUCKETS: { method: string; path: RegExp; bucket: RateBucket }[] = [];
for (const { rest, bucket } of OPERATIONS) {
  if (!rest) continue;
  const method = rest.method.toUpperCase();
  if (rest.path.includes('{')) PATTERN_BUCKETS.push({ method, path: new RegExp(`^/api/v1${rest.path.replace(/\{\w+\}/g, '[^/]+')}$`), bucket });
  else STATIC_BUCKETS.set(`${method} /api/v1${rest.path}`, bucket);
}

/**
 * The rate-limit budget a REST request spends, from the operation it reaches: `commands` for the
 * costly ones (commands, the audit, creating and running watches, adding sources by URL), `reads`
 * for every other. A POST to an unknown command costs a command token like a known one.
 */
export function restRateBucket(method: string, path: string): RateBucket {
  const bucket = STATIC_BUCKETS.get(`${method} ${path}`);
  if (bucket) return bucket;
  if (method === 'POST' && path.startsWith(COMMANDS_PREFIX)) return 'commands';
  return PATTERN_BUCKETS.find((route) => route.method === method && route.path.test(path))?.bucket ?? 'reads';
}
