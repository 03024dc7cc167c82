import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';
import { executeCommand } from '../operations/commands.ts';
import { commandResponse } from './answers.ts';
import { readJsonObject } from './json-body.ts';

const OTHER_COMMAND = /^\/api\/v1\/commands\/([^/]+)$/;

/**
 * POST /api/v1/commands/<any other name> reaches the core too, which answers 404 naming the
 * commands (after the key's scope, as for a known command). Not in the document: it only ever
 * refuses. The app's not-found handler calls this (after the /api/v1 middleware ran) instead of a
 * `/:command` route: beside the commands' own routes that pattern made Hono give up its RegExp
 * router for the slower trie router on every request (11% of a REST read's CPU in a profile).
 */
export function otherCommand(c: Context<AppEnv>): Promise<Response> | undefined {
  const match = c.req.method === 'POST' ? OTHER_COMMAND.exec(c.req.path) : null;
  if (!match || !c.get('core')) return undefined;
  let name = match[1]!;
  try {
    name = decodeURIComponent(name);
  } catch {
    // Malformed percent-encoding: the name as sent, which no command has.
  }
  return runCommand(c, name);
}

const runCommand = async (c: Context<AppEnv>, name: string) => commandResponse(await executeCommand(c.get('core'), name, await readJsonObject(c)));
