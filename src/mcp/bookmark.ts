import type { Result } from '@modelcontextprotocol/server';
import { readClientBookmark } from '../ground/db-session.ts';

/**
 * The MCP door's part of read-your-writes: the request's D1 bookmark travels in `_meta`, under a key
 * of Recon's own. MCP's naming rules for `_meta` keys: an optional prefix of dot-separated labels
 * (each starting with a letter and ending with a letter or digit) followed by a slash, then a name
 * starting and ending with an alphanumeric; prefixes whose second label is `modelcontextprotocol` or
 * `mcp` are MCP's. Recon has no domain of its own (each deployment has its own host), so its prefix
 * is its name, one label.
 */
export const BOOKMARK_META_KEY = 'recon/bookmark';

/** Where the bookmark of a message is, as a refusal names it. */
const WHERE = `params._meta["${BOOKMARK_META_KEY}"]`;

/** The bookmark a JSON-RPC message carries in `params._meta` (checked: 400 `invalid_input` when it is not one), or null. */
export function bookmarkOfMessage(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
  if (typeof meta !== 'object' || meta === null) return null;
  return readClientBookmark((meta as Record<string, unknown>)[BOOKMARK_META_KEY], WHERE);
}

/** `result` with the request's bookmark in its `_meta` (as it is when there is none). */
export function withBookmark<R extends Result>(result: R, bookmark: string | null): R {
  if (bookmark === null) return result;
  return { ...result, _meta: { ...result._meta, [BOOKMARK_META_KEY]: bookmark } };
}
