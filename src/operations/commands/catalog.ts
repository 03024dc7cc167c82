import { z } from 'zod';
import type { CommandFields } from '../definition.ts';

/** A command as the catalog shows it: its name (the operation's id), its arguments and its catalog fields. */
export interface CatalogEntry extends CommandFields {
  id: string;
  input: z.ZodType;
}

/** The subset of JSON Schema that zod emits for our command inputs. */
interface JsonSchema {
  type?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  pattern?: string;
}

/** The JSON Schema of a command's request body as a caller writes it (defaults make fields optional). */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' \\| ');
  if (schema.type === 'array' && schema.items) return `array of ${typeOf(schema.items)}`;
  if (schema.type === 'object' && schema.properties) {
    return `object { ${Object.keys(schema.properties).join(', ')} }`;
  }
  return schema.type ?? 'any';
}

/** "1-500 characters", "at most 25 items", "1-25": a range in the words the descriptions use. */
function range(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  const suffix = unit ? ` ${unit}` : '';
  if (min !== undefined && max !== undefined) return `${min}-${max}${suffix}`;
  if (min !== undefined) return `at least ${min}${suffix}`;
  if (max !== undefined) return `at most ${max}${suffix}`;
  return undefined;
}

function limitsOf(schema: JsonSchema): string[] {
  const limits = [
    range(schema.minLength, schema.maxLength, 'characters'),
    range(schema.minItems, schema.maxItems, 'items'),
    range(schema.minimum, schema.maximum, ''),
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : undefined,
  ];
  return limits.filter((limit): limit is string => limit !== undefined);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function argumentsTable(schema: JsonSchema): string {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return 'No arguments.';
  const required = new Set(schema.required ?? []);
  const rows = properties.map(([name, property]) => {
    const description = property.description ?? '';
    // Descriptions written for models often state their limits already; say each only once.
    const extra = limitsOf(property).filter((limit) => !description.includes(limit));
    const notes = [description, ...extra].filter(Boolean).join(' ');
    return `| \`${name}\` | ${typeOf(property)} | ${required.has(name) ? 'yes' : 'no'} | ${cell(notes)} |`;
  });
  return ['| Argument | Type | Required | Notes |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

function exampleCall(command: CatalogEntry): string {
  return [
    '```sh',
    `curl -X POST "$RECON_URL/api/v1/commands/${command.id}" \\`,
    '  -H "Authorization: Bearer $RECON_API_KEY" -H "Content-Type: application/json" \\',
    `  -d '${JSON.stringify(command.example)}'`,
    '```',
  ].join('\n');
}

function commandSection(command: CatalogEntry): string {
  const mode =
    command.mode === 'sync'
      ? 'sync: answers 200 with markdown'
      : 'async: answers 202 with a run id in `X-Run-Id`; poll `GET /api/v1/runs/' + command.id + '/{id}`';
  return [
    `## ${command.id}`,
    '',
    command.description,
    '',
    `- Mode: ${mode}`,
    `- Needs a finished sales profile: ${command.requiresOnboarding ? 'yes' : 'no'}`,
    '',
    argumentsTable(inputJsonSchema(command.input)),
    '',
    exampleCall(command),
  ].join('\n');
}

/** The markdown command catalog: the same text for GET /api/v1/commands, `help` and the MCP tool. */
export function renderCatalog(commands: readonly CatalogEntry[]): string {
  return [
    '# Recon commands',
    '',
    'Run a command with `POST /api/v1/commands/{command}` and a JSON body of its arguments, or call the MCP tool of the same name at `/api/mcp`. Unknown arguments are rejected with 400 so typos surface.',
    '',
    '| Command | Mode | What it does |',
    '| --- | --- | --- |',
    ...commands.map((c) => `| \`${c.id}\` | ${c.mode} | ${cell(c.title)} |`),
    '',
    ...commands.map(commandSection).join('\n\n').split('\n'),
    '',
  ].join('\n');
}
