import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { DomainError } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';
import { discardBody } from './discard-body.ts';

/**
 * Refuses a request body over `maxBytes` with 413 `payload_too_large` (hono's bodyLimit: on its
 * Content-Length, else as it is read), after reading and dropping the rest of it (discardBody) so
 * the client reads the answer. The MCP door mounts it; each REST route applies its operation's
 * limit as it reads its arguments (src/routes/operations.ts).
 */
export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  const size = maxBytes >= 1024 * 1024 ? `${maxBytes / 1024 / 1024} MiB` : `${maxBytes / 1024} KiB`;
  return bodyLimit({
    maxSize: maxBytes,
    onError: async (c) => {
      await discardBody(c.req.raw);
      throw new DomainError('payload_too_large', `Request body exceeds ${size}; send less, or split it.`);
    },
  });
}
