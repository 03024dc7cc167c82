import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/**
 * zod with `.openapi(name)`, for schemas that are components of the OpenAPI document (an
 * operation's result, a body). The same extension @hono/zod-openapi applies to the same zod, done
 * here so operations name their schemas where they declare them without importing a door's library.
 */
extendZodWithOpenApi(z);

export { z };
