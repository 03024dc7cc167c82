import { Hono } from 'hono';
import { catalogFor, COMMANDS, executeCommand, type CommandResult } from '../core/commands.ts';
import type { AppEnv } from '../env.ts';
import { readJsonObject } from './json-body.ts';
import type { ApiOperation } from './openapi-types.ts';

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
  return new Response(`Started ${kind} run ${id}. Poll GET /api/v1/runs/${kind}/${id} for its result.\n`, {
    status: 202,
    headers,
  });
}

export const commands = new Hono<AppEnv>()
  .get('/', (c) => c.body(catalogFor(c.var.core), 200, MARKDOWN))
  .post('/:command', async (c) => {
    const input = await readJsonObject(c);
    return commandResponse(await executeCommand(c.var.core, c.req.param('command'), input));
  });

export const commandOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/commands',
    operationId: 'listCommands',
    summary: 'The markdown command catalog (same content as the help command)',
    auth: 'key',
      scope: 'commands',
    responses: { 200: { description: 'The catalog', contentType: 'text/markdown' } },
  },
  ...COMMANDS.map(
    (command): ApiOperation => ({
      method: 'post',
      path: `/api/v1/commands/${command.name}`,
      operationId: `command_${command.name.replace('-', '_')}`,
      summary: command.title,
      description: command.description,
      auth: 'key',
      scope: 'commands',
      requestBody: { schema: command.input, example: command.example },
      responses:
        command.mode === 'sync'
          ? { 200: { description: 'The result', contentType: 'text/markdown' } }
          : { 202: { description: 'Run started; poll the URL in Location', contentType: 'text/markdown' } },
    }),
  ),
];
