// The D1 types that the Worker has as globals (tsconfig.json), for scripts that hand src/db and
// src/research functions a real local D1 binding (wrangler's getPlatformProxy; scripts/lib/research-replay.ts).
import type * as Workers from '@cloudflare/workers-types/index.ts';

declare global {
  type D1Database = Workers.D1Database;
  type D1DatabaseSession = Workers.D1DatabaseSession;
  type D1PreparedStatement = Workers.D1PreparedStatement;
  type D1Result<T = unknown> = Workers.D1Result<T>;
  type D1Meta = Workers.D1Meta;
  type D1SessionBookmark = Workers.D1SessionBookmark;
  type D1SessionConstraint = Workers.D1SessionConstraint;
}
