import type { Context } from 'hono';
import { DomainError, messageOf } from '../ground/errors.ts';

/**
 * The request body as a JSON object: an empty body reads as `{}`; malformed JSON or a body that is
 * not an object is 400 `invalid_input`. Size is already bounded by the body limit middleware.
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = messageOf(error);
    throw new DomainError('invalid_input', `Request body is not valid JSON (${reason}).`, {
      details: [{ path: '', message: 'malformed JSON' }],
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DomainError('invalid_input', 'Request body must be a JSON object, e.g. {"topic": "..."}.', {
      details: [{ path: '', message: 'expected a JSON object' }],
    });
  }
  return value as Record<string, unknown>;
}
