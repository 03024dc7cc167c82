import { z } from 'zod';
import { MAX_PAGE_TOKEN_LENGTH } from '../page-token.ts';

/**
 * The paging arguments every cursor-paged list takes, one schema for all of them: `limit` (1 to
 * `max`, default `byDefault`) and `cursor`, the previous page's `nextCursor`. A cursor is signed for
 * the organization and the list (with its filters) that gave it out, and valid for a day.
 */
export function paging(options: { max: number; byDefault: number; noun: string }) {
  const { max, byDefault, noun } = options;
  return {
    limit: z.int().min(1).max(max).default(byDefault).describe(`${noun} per page, 1-${max} (default ${byDefault}).`),
    cursor: Cursor.optional(),
  };
}

export const Cursor = z
  .string()
  .min(1)
  .max(MAX_PAGE_TOKEN_LENGTH)
  .describe("The previous page's nextCursor, sent with the same other parameters; valid for a day, for your organization only.");
