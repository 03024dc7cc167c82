import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { CommandDefinition, CommandResult } from '../operations/command-definition.ts';
import { catalogFor, COMMANDS, executeCommand } from '../operations/commands.ts';
import type { AppEnv } from '../env.ts';
import { readJsonObject } from './json-body.ts';
import { documentedBody, errors, KEYED, markdown, RunHeaders } from './openapi-parts.ts';

export const MARKDOWN = { 'Content-Type': 'text/markdown; charset=utf-8' };

/** Writes a command's result the REST way: 200 markdown, or 202 with the run's headers. */
export function commandResponse(result: CommandResult): Response {
  if (result.mode === 'sync') return new Response(result.markdown, { status: 200, headers: MARKDOWN });
  const { id, kind, status } = result.run;
  const headers: Record<string, string> = {
    ...MARKDOWN,
    'X-Run-Id': id,
    'X-Run-Status': status,
    Location: `/api/v1/runs/${kind}/${id}`,
  };
  if (kind === 'audit') headers['X-Audit-Id'] = id;
  return new Response(result.markdown, {
    status: 202,
    headers,
  });
}

/** The headers of a 202 that started a run (Retry-After is for polls only). */
const { 'Retry-After': _pollOnly, ...STARTED_HEADERS } = RunHeaders;

/** 202 Accepted: a run was started. */
export const STARTED = markdown('Run started: poll the URL in Location (the body says the same in words).', STARTED_HEADERS);

/** The schema component name of a command's arguments, e.g. `GtmAuditInput`. */
const inputName = (command: CommandDefinition) => `${command.name.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}Input`;

const runCommand = async (c: Context<AppEnv>, name: string) => commandResponse(await executeCommand(c.get('core'), name, await readJsonObject(c)));

export const commands = new OpenAPIHono<AppEnv>();

commands.openapi(
  createRoute({
    method: 'get',
    path: '/',
    operationId: 'listCommands',
    summary: 'The command catalog',
    description: 'Markdown: every command, its mode, its arguments with types and limits, and an example call (the same as the help command).',
    'x-required-scope': 'commands',
    responses: { 200: markdown('The catalog'), ...errors(...KEYED) },
  }),
  (c) => c.body(catalogFor(c.get('core')), 200, MARKDOWN),
);

for (const command of COMMANDS) {
  const operation = {
    method: 'post',
    path: `/${command.name}`,
    operationId: `command_${command.name.replace('-', '_')}`,
    summary: command.title,
    description: `${command.description} Send the arguments as a JSON object (an empty body is {}); unknown fields are refused.`,
    'x-required-scope': 'commands',
    request: { body: documentedBody(commands, inputName(command), command.input, { example: command.example }) },
  } as const;
  const refusals = errors(400, ...KEYED, 413, ...(command.requiresOnboarding ? ([428] as const) : []));
  const run = (c: Context<AppEnv>) => runCommand(c, command.name);
  if (command.mode === 'sync') commands.openapi(createRoute({ ...operation, responses: { 200: markdown('The result'), ...refusals } }), run);
  else commands.openapi(createRoute({ ...operation, responses: { 202: STARTED, ...refusals } }), run);
}

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

