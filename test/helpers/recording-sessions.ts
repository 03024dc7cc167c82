import { env } from 'cloudflare:workers';

/** What a D1 binding was asked: the start of each session opened, and any statement sent to the binding itself (outside a session). */
export interface SessionLog {
  /** The argument of each withSession call, in order (a constraint or a bookmark). */
  starts: (string | undefined)[];
  /** Each session opened, in order: its bookmark is the one a request should send back. */
  sessions: D1DatabaseSession[];
  /** Calls of prepare, batch, exec or dump on the binding itself. */
  outside: string[];
}

/**
 * The real D1 binding, with every session it opens recorded (the sessions are the real ones), and
 * every use of the binding outside a session recorded too (and still run).
 */
export function recordingSessions(real: D1Database = env.DB): { DB: D1Database; log: SessionLog } {
  const log: SessionLog = { starts: [], sessions: [], outside: [] };
  const DB = new Proxy(real, {
    get(target, property) {
      if (property === 'withSession') {
        return (start?: string) => {
          log.starts.push(start);
          const session = target.withSession(start);
          log.sessions.push(session);
          return session;
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (property === 'prepare' || property === 'batch' || property === 'exec' || property === 'dump') log.outside.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { DB, log };
}

/** The worker's env with `DB` replaced. */
export function envWith(DB: D1Database): Env {
  return { ...env, DB } as Env;
}

/** An ExecutionContext for app.request whose waitUntil work is kept, to await before the test ends. */
export function executionContext(): { ctx: ExecutionContext; settled: () => Promise<unknown> } {
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (promise: Promise<unknown>) => pending.push(promise), passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  return { ctx, settled: () => Promise.allSettled(pending) };
}
