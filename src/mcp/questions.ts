import {
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type PrimitiveSchemaDefinition,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { readConfig } from '../ground/config.ts';
import type { CoreContext, Principal } from '../ground/context.ts';
import { DomainError } from '../ground/errors.ts';
import { missingProfileFields, SalesProfileInput, type SalesProfile } from '../ground/schemas/profile.ts';
import { sha256Hex } from '../ground/sha256.ts';
import { callOperation } from '../operations/call.ts';
import type { ToolOperation } from '../operations/definition.ts';
import { getProfile } from '../operations/profile/profile.ts';
import { PUT_PROFILE } from '../operations/profile/profile-operations.ts';
import { confirmationOf } from './tools/index.ts';

/**
 * Questions asked in the client (the 2026-07-28 revision's input-required results, basic/patterns/mrtr):
 * instead of refusing or acting at once, a tool that opts in through its MCP binding answers a client
 * that can show a form (its request's `_meta` envelope declares elicitation, form mode) with an input
 * request and a signed `requestState`; the client asks the person and retries the same call with the
 * answer. Two kinds:
 * - onboarding (`asksOnboarding`): a command refused because the sales profile is unfinished asks for
 *   the missing fields, saves the answers through the same core as PUT /api/v1/profile, then runs;
 * - confirmation (`confirmation`): watch-create (its cost cap) and action-request (its diff) run only
 *   once the person confirms what the core says the call will do.
 * The state is signed with MCP_REQUEST_STATE_SECRET and bound to the organization, the key, the tool and
 * a digest of its arguments: the SDK refuses any other (-32602 "Invalid or expired requestState").
 * Without the secret, or for a client that cannot answer a form, every tool behaves as before.
 */

/** How long a question may wait for its answer (the state's lifetime). */
export const QUESTION_TTL_SECONDS = 600;

/** The keys of the input requests (one per question). */
const PROFILE_KEY = 'profile';
const CONFIRM_KEY = 'confirm';

/** What a question's state carries back: which question was asked, and what it asked. */
export type QuestionState =
  /** The onboarding form: the profile fields it asked for (dotted, e.g. `icp.regions`). */
  | { ask: 'onboarding'; fields: string[] }
  /** A confirmation: the SHA-256 of the message shown, so a changed diff or price is asked again. */
  | { ask: 'confirm'; shown: string };

export type QuestionCodec = RequestStateCodec<QuestionState>;

/** The methods whose results may ask for input (2026-07-28): only these ever carry a state. */
const ASKING_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** JSON with every object's keys sorted, so the same arguments give the same digest whatever their order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, node: unknown) =>
    node && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(Object.keys(node).sort().map((name) => [name, (node as Record<string, unknown>)[name]]))
      : node,
  );
}

/**
 * What a request's state is bound to: the organization, the key, the method, its target (the tool or
 * prompt name, the resource URI) and the SHA-256 of its arguments. Undefined for a method that cannot
 * carry a state.
 */
export async function questionBinding(principal: Pick<Principal, 'organization' | 'keyId'>, message: unknown): Promise<string | undefined> {
  const { method, params } = (typeof message === 'object' && message !== null ? message : {}) as { method?: unknown; params?: Record<string, unknown> };
  if (typeof method !== 'string' || !ASKING_METHODS.has(method)) return undefined;
  const target = String(params?.name ?? params?.uri ?? '');
  const digest = await sha256Hex(canonicalJson(params?.arguments ?? {}));
  return [principal.organization.id, principal.keyId, method, target, digest].join('\u0000');
}

/** The codec of one request's question state: signed with `secret`, bound to `binding`, valid for `ttlSeconds`. */
export function questionCodec(secret: string, binding: string, ttlSeconds = QUESTION_TTL_SECONDS): QuestionCodec {
  return createRequestStateCodec<QuestionState>({ key: secret, ttlSeconds, bind: () => binding });
}

/**
 * The question codec of one 2026-07-28 request (its `verify` is the server's
 * `requestState.verify`); undefined when no MCP_REQUEST_STATE_SECRET is set (nothing is asked) or
 * the method cannot carry a state.
 */
export async function questionsFor(ctx: CoreContext, message: unknown): Promise<QuestionCodec | undefined> {
  const secret = readConfig(ctx.env).MCP_REQUEST_STATE_SECRET;
  if (!secret) return undefined;
  const binding = await questionBinding(ctx.principal, message);
  return binding === undefined ? undefined : questionCodec(secret, binding);
}

/** Whether the request's client can answer a form: its envelope declares elicitation with form mode (`{}` means form). */
export function answersForms(envelope: Record<string, unknown> | undefined): boolean {
  const capabilities = envelope?.['io.modelcontextprotocol/clientCapabilities'] as { elicitation?: unknown } | undefined;
  const elicitation = capabilities?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

export interface AskingCall {
  ctx: CoreContext;
  tool: ToolOperation;
  args: Record<string, unknown>;
  /** The SDK's context of the tools/call request (envelope, input responses, the verified state). */
  request: ServerContext;
  /** This request's question codec, when questions can be asked at all (questionsFor). */
  codec: QuestionCodec | undefined;
  /** Runs the tool as any client gets it (a result, a task, or a thrown refusal). */
  run: () => Promise<CallToolResult>;
  /** Told `declined` when the person said no, for the access log. */
  onDeclined?: () => void;
}

/**
 * Answers a tools/call: a tool that asks, called by a 2026-07-28 client that can answer (a `codec`
 * and a request envelope that declares form elicitation), asks first (or, on the retry with the
 * answer, acts on it); every other call just runs, a 2025 one included.
 */
export async function answerToolCall(call: AskingCall): Promise<CallToolResult | InputRequiredResult> {
  const { tool, request, codec } = call;
  if (!codec || !(tool.mcp.asksOnboarding || tool.mcp.confirm) || !answersForms(request.mcpReq.envelope)) return call.run();
  return tool.mcp.confirm ? confirmFirst(call, codec) : onboardFirst(call, codec);
}

/** A yes/no form: the person ticks `confirm` to go on. */
const confirmForm = (label: string) => ({
  type: 'object' as const,
  properties: { [CONFIRM_KEY]: { type: 'boolean' as const, title: label, description: 'Yes to go on; no (or decline) and nothing is done.', default: false } },
  required: [CONFIRM_KEY],
});

/** Asks to confirm what the core says the call will do; runs it once confirmed, answers the refusal when declined. */
async function confirmFirst(call: AskingCall, codec: QuestionCodec): Promise<CallToolResult | InputRequiredResult> {
  const { ctx, tool, args, request } = call;
  // Scope, arguments and the core's own checks first: a call that would be refused is refused, not asked.
  const confirmation = await confirmationOf(ctx, tool, args);
  const shown = await sha256Hex(confirmation.message);
  const state = request.mcpReq.requestState<QuestionState>();
  if (state?.ask === 'confirm' && state.shown === shown) {
    const answer = inputResponse(request.mcpReq.inputResponses, CONFIRM_KEY);
    if (answer.kind === 'elicit') {
      if (answer.action === 'accept' && answer.content?.[CONFIRM_KEY] === true) return call.run();
      call.onDeclined?.();
      return { content: [{ type: 'text', text: confirmation.declined }], isError: true };
    }
  }
  // First round, no answer, or what the call would do changed since it was shown: ask (again).
  return inputRequired({
    inputRequests: { [CONFIRM_KEY]: inputRequired.elicit({ message: confirmation.message, requestedSchema: confirmForm(confirmation.confirm) }) },
    requestState: await codec.mint({ ask: 'confirm', shown }, request),
  });
}

/**
 * Runs a command behind the onboarding gate; refused for an unfinished profile, asks for the missing
 * fields instead. On the retry, accepted answers are saved as PUT /api/v1/profile saves a body (an
 * invalid one is refused with its message and nothing is written), then the command runs; declined,
 * it gives the refusal every client gets.
 */
async function onboardFirst(call: AskingCall, codec: QuestionCodec): Promise<CallToolResult | InputRequiredResult> {
  const { ctx, tool, request } = call;
  const state = request.mcpReq.requestState<QuestionState>();
  if (state?.ask === 'onboarding') {
    const answer = inputResponse(request.mcpReq.inputResponses, PROFILE_KEY);
    if (answer.kind === 'elicit' && answer.action === 'accept') await saveAnswers(ctx, state.fields, answer.content ?? {});
    return call.run();
  }
  try {
    return await call.run();
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'onboarding_required') throw error;
    const form = profileForm((await getProfile(ctx)).profile);
    if (!form) throw error;
    return inputRequired({
      inputRequests: {
        [PROFILE_KEY]: inputRequired.elicit({
          message:
            `${tool.id} needs your organization's sales profile, which is not finished (missing: ${form.missing.join(', ')}). ` +
            'Your answers are saved as the profile, as set-profile (PUT /api/v1/profile) saves it; answer lists with commas between the entries.',
          requestedSchema: form.schema,
        }),
      },
      requestState: await codec.mint({ ask: 'onboarding', fields: form.fields }, request),
    });
  }
}

/** One field of the profile as a form asks it: a string, or a list answered as a comma-separated string. */
interface ProfileLeaf {
  /** Dotted, as `missing` names it: `companyName`, `icp.regions`. */
  name: string;
  list: boolean;
  /** The form property: flat and primitive, as elicitation forms must be. */
  property: PrimitiveSchemaDefinition;
}

/** The string keywords an elicitation form property may carry (the rest of the profile's rules stay with the core). */
const FORM_STRING_KEYWORDS = ['minLength', 'maxLength'] as const;
const FORM_FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/** `companyName` -> `Company name`; a parent of three letters or fewer reads as an acronym: `icp.regions` -> `ICP: regions`. */
function titleOf(name: string): string {
  const words = (segment: string) => segment.replace(/([A-Z])/g, ' $1').toLowerCase();
  const segments = name.split('.');
  const leaf = words(segments.at(-1)!);
  const parents = segments.slice(0, -1).map((s) => (s.length <= 3 ? s.toUpperCase() : words(s)));
  const text = parents.length ? `${parents.join(': ')}: ${leaf}` : leaf;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

let leaves: ProfileLeaf[] | undefined;

/**
 * The profile's fields as form properties, derived once per isolate from the schema PUT
 * /api/v1/profile validates with (SalesProfileInput): nested objects are flattened to dotted names,
 * strings keep their description and length limits, lists become one comma-separated string.
 */
function profileLeaves(): ProfileLeaf[] {
  if (leaves) return leaves;
  const found: ProfileLeaf[] = [];
  const walk = (properties: Record<string, Record<string, unknown>>, prefix: string) => {
    for (const [key, node] of Object.entries(properties)) {
      const name = prefix + key;
      const description = typeof node.description === 'string' ? node.description : undefined;
      if (node.type === 'object' && node.properties) walk(node.properties as Record<string, Record<string, unknown>>, `${name}.`);
      else if (node.type === 'array') {
        const comma = 'Answer with the entries separated by commas.';
        found.push({ name, list: true, property: { type: 'string', title: titleOf(name), description: description ? `${description} ${comma}` : comma } });
      } else if (node.type === 'string') {
        const limits = Object.fromEntries(FORM_STRING_KEYWORDS.filter((k) => typeof node[k] === 'number').map((k) => [k, node[k]]));
        const format = typeof node.format === 'string' && FORM_FORMATS.has(node.format) ? { format: node.format } : {};
        const property = { type: 'string', title: titleOf(name), ...(description ? { description } : {}), ...limits, ...format } as PrimitiveSchemaDefinition;
        found.push({ name, list: false, property });
      }
    }
  };
  const root = z.toJSONSchema(SalesProfileInput, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
  walk(root.properties, '');
  leaves = found;
  return found;
}

/** Every field onboarding can require (what an empty profile misses). */
let requirable: ReadonlySet<string> | undefined;

/** The value at a dotted path of a profile. */
const valueAt = (profile: unknown, name: string): unknown =>
  name.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), profile);

/**
 * The onboarding form of a profile: its missing fields (required) and its optional lists still
 * empty (competitors, value propositions), in the schema's order; null when nothing is missing.
 */
function profileForm(profile: SalesProfile): { missing: string[]; fields: string[]; schema: { type: 'object'; properties: Record<string, PrimitiveSchemaDefinition>; required: string[] } } | null {
  const missing = missingProfileFields(profile);
  if (missing.length === 0) return null;
  requirable ??= new Set(missingProfileFields(SalesProfileInput.parse({})));
  const asked = profileLeaves().filter((leaf) => {
    if (missing.includes(leaf.name)) return true;
    const value = valueAt(profile, leaf.name);
    return !requirable!.has(leaf.name) && (value === undefined || (Array.isArray(value) && value.length === 0));
  });
  return {
    missing,
    fields: asked.map((leaf) => leaf.name),
    schema: { type: 'object', properties: Object.fromEntries(asked.map((leaf) => [leaf.name, leaf.property])), required: asked.filter((leaf) => missing.includes(leaf.name)).map((leaf) => leaf.name) },
  };
}

/**
 * Saves the answers of an onboarding form over the stored profile, through the core of PUT
 * /api/v1/profile (same validation, same messages; an invalid answer writes nothing). Only the fields
 * the form asked are read; a list's comma-separated answer becomes its entries. A profile finished
 * in the meantime is left as it is.
 */
async function saveAnswers(ctx: CoreContext, fields: readonly string[], content: Record<string, unknown>): Promise<void> {
  const { profile, complete } = await getProfile(ctx);
  if (complete) return;
  const body = structuredClone(profile) as Record<string, unknown>;
  const byName = new Map(profileLeaves().map((leaf) => [leaf.name, leaf]));
  for (const name of fields) {
    const leaf = byName.get(name);
    if (!leaf || !Object.hasOwn(content, name)) continue;
    const raw = content[name];
    const value = leaf.list && typeof raw === 'string' ? raw.split(',').map((entry) => entry.trim()).filter(Boolean) : raw;
    const path = name.split('.');
    let node = body;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path.at(-1)!] = value;
  }
  await callOperation(ctx, PUT_PROFILE, body, 'request body');
}
