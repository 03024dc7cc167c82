import type { z } from 'zod';
import type { Scope } from '../auth/api-key.ts';

/**
 * One documented operation. Each route file exports the operations it serves, next to the
 * handlers, and the OpenAPI document is assembled from them with zod's own JSON Schema output.
 */
export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI-style path, e.g. `/api/v1/commands/research`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** `public`: no key needed (only /healthz); `key`: any valid API key. */
  auth: 'public' | 'key';
  /** The scope the key must carry, if any. */
  scope?: Scope;
  requestBody?: { schema: z.ZodType; example?: unknown; contentType?: 'application/json' | 'application/x-ndjson' };
  responses: Record<number, { description: string; contentType?: 'application/json' | 'text/markdown'; schema?: z.ZodType }>;
}
