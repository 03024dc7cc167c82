import type { RouteConfig } from '@hono/zod-openapi';
import type { z } from 'zod';
import { parseInput } from '../ground/validation.ts';

const WHAT = { query: 'query', param: 'path' } as const;

/**
 * The hook of a route whose path or query parameters the library validates (from the route's own
 * schemas): a failure is worded by the core's `parseInput`, from the same schema and the same
 * value, so a bad parameter is the documented 400 `invalid_input` with one detail per field, never
 * the library's own answer.
 */
export function refuseInvalid(route: RouteConfig) {
  return (result: { success: boolean; target: string }): undefined => {
    if (result.success) return undefined;
    const target = result.target as keyof typeof WHAT;
    const schema = (target === 'query' ? route.request?.query : route.request?.params) as z.ZodType | undefined;
    // On failure the validator hands the hook the value it validated.
    const value = (result as { data?: unknown }).data;
    if (!schema || !(target in WHAT)) throw new Error(`No schema for the ${result.target} of ${route.method} ${route.path}`);
    parseInput(schema, value, WHAT[target]);
    throw new Error(`The ${result.target} of ${route.method} ${route.path} failed validation but passed parseInput`);
  };
}
