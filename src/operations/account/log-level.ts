import { readMcpLogLevel, writeMcpLogLevel } from '../../db/mcp-log-levels.ts';
import type { CoreContext } from '../../ground/context.ts';

/** The MCP log levels, least severe first (RFC 5424, as MCP names them). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const isLogLevel = (value: string | null): value is LogLevel => LOG_LEVELS.includes(value as LogLevel);

/**
 * The least severe level the calling key wants log messages at, or null while it has chosen none
 * (then it gets no log messages). The MCP door is stateless (no session outlives a request), so
 * `logging/setLevel` is kept per API key and applies to that key's later requests, from any
 * isolate, until set again.
 */
export async function getLogLevel(ctx: CoreContext): Promise<LogLevel | null> {
  const level = await readMcpLogLevel(ctx.db, ctx.principal.keyId);
  return isLogLevel(level) ? level : null;
}

export async function setLogLevel(ctx: CoreContext, level: LogLevel): Promise<void> {
  await writeMcpLogLevel(ctx.db, ctx.principal.keyId, level, new Date().toISOString());
}

/** Whether a message at `level` passes the chosen `threshold`. */
export function passes(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
