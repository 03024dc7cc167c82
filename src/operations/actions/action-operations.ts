import { z } from '../../ground/schemas/openapi.ts';
import { paging } from '../../ground/schemas/paging.ts';
import {
  ActionListFilter,
  ActionRequestInput,
  ACTIONS,
  APPROVAL_STATUSES,
  decideActionRequest,
  getActionRequest,
  listActionRequests,
  previewAction,
  requestAction,
  type ActionPreview,
  type ApprovalRequestView,
} from './actions.ts';
import { assertIdAlone, defineOperation, type ToolAnswer } from '../definition.ts';

const KeyRef = z.object({ keyId: z.string() });

const ApprovalRequest = z
  .object({
    id: z.string(),
    action: z.enum(ACTIONS),
    params: z.record(z.string(), z.unknown()).describe('The change, validated and normalized (keys as stored).'),
    reason: z.string().nullable(),
    status: z.enum(APPROVAL_STATUSES).describe('pending -> approved -> applied or failed; pending -> rejected; pending -> expired after 7 days.'),
    requestedBy: KeyRef,
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
    decidedBy: KeyRef.nullable(),
    expiresAt: z.string(),
    failure: z.string().nullable().describe('Why an approved change could not be applied (status failed); otherwise null.'),
  })
  .openapi('ApprovalRequest');

const ApprovalRequestPage = z
  .object({ requests: z.array(ApprovalRequest), nextCursor: z.string().nullable().describe('The next page, or null at the end.') })
  .openapi('ApprovalRequestPage');

const ListInput = z.strictObject({
  id: z.string().max(100).optional().describe('One request by its id (then no other parameter).'),
  ...ActionListFilter.shape,
  ...paging({ max: 100, byDefault: 20, noun: 'Requests' }),
});

const DecideInput = z.strictObject({ id: z.string().max(100).describe('The approval request id.') });

/** What the change does, in a few words: `update_properties company acme.com (name)`. */
function changeOf(request: ApprovalRequestView): string {
  const p = request.params as { type?: string; key?: string; properties?: Record<string, unknown>; link?: string; from?: { type: string; key: string }; to?: { type: string; key: string } };
  if (p.link && p.from && p.to) return `${request.action} ${p.link} from ${p.from.type} ${p.from.key} to ${p.to.type} ${p.to.key}`;
  const names = p.properties ? ` (${Object.keys(p.properties).join(', ')})` : '';
  return `${request.action} ${p.type} ${p.key}${names}`;
}

/** One request as a line a person reads: what, its status, who asked, and what happens next. */
function requestLine(request: ApprovalRequestView): string {
  const status =
    request.status === 'pending'
      ? `pending until ${request.expiresAt}`
      : request.status === 'failed'
        ? `failed: ${request.failure}`
        : `${request.status}${request.decidedBy ? ` by key ${request.decidedBy.keyId}` : ''}`;
  return `- ${request.id}: ${changeOf(request)}; ${status}; requested by key ${request.requestedBy.keyId} at ${request.createdAt}${request.reason ? `; reason: ${request.reason}` : ''}`;
}

/** At most this many property lines, each value cut to this many characters, in a diff shown before filing. */
const DIFF_LINES = 50;
const DIFF_VALUE_CHARS = 200;

const shownValue = (value: unknown) => {
  const json = JSON.stringify(value) ?? 'null';
  return json.length > DIFF_VALUE_CHARS ? `${json.slice(0, DIFF_VALUE_CHARS)}...` : json;
};

/** The diff of a change as a person reads it before it is filed: what is created, changed or removed, each property from -> to. */
function diffText(preview: ActionPreview): string {
  const p = preview.params as { type?: string; key?: string; link?: string; from?: { type: string; key: string }; to?: { type: string; key: string } };
  if (p.link && p.from && p.to) {
    return `${preview.action === 'link' ? 'Adds' : 'Removes'} the ${p.link} link from ${p.from.type} ${p.from.key} to ${p.to.type} ${p.to.key}.`;
  }
  const target = `${p.type} ${p.key}`;
  const head = preview.action === 'delete_object' ? `Deletes ${target} and its links` : preview.exists ? `Changes ${target}` : `Creates ${target}`;
  const lines = preview.changes.slice(0, DIFF_LINES).map((c) => `- ${c.property}: ${shownValue(c.from)} -> ${shownValue(c.to)}`);
  if (preview.changes.length > DIFF_LINES) lines.push(`- and ${preview.changes.length - DIFF_LINES} more properties`);
  if (!lines.length) lines.push('- no property would change (it already holds these values)');
  return [`${head}:`, ...lines].join('\n');
}

const NEXT =
  'A person with another key that has oms:approve decides it: POST /api/v1/oms/actions/{id}/approve or /reject (no MCP tool approves).';

function oneRequest(request: ApprovalRequestView, heading: string): ToolAnswer {
  const text = [heading, requestLine(request), ...(request.status === 'pending' ? [NEXT.replace('{id}', request.id)] : [])].join('\n');
  return { text: `${text}\n`, structured: { ...request } };
}

function decideOperation(decision: 'approve' | 'reject') {
  return defineOperation({
    id: `${decision}-action`,
    scope: 'oms:approve',
    bucket: 'reads',
    input: DecideInput,
    output: ApprovalRequest,
    errors: ['invalid_input', 'not_found', 'conflict'],
    effects: { readOnlyHint: false, destructiveHint: decision === 'approve', idempotentHint: false, openWorldHint: false },
    run: (ctx, { id }) => decideActionRequest(ctx, id, decision),
    rest: {
      method: 'post',
      path: `/oms/actions/{id}/${decision}`,
      operationId: `${decision}Action`,
      summary: decision === 'approve' ? 'Approve a pending request, which applies its change at once' : 'Reject a pending request',
      description:
        decision === 'approve'
          ? 'Applies the change with provenance kind action and the request id; the answer is the request, applied, or failed with the reason (the object changed or is gone). The requesting key cannot approve its own request (403).'
          : 'The request ends rejected; nothing changes.',
      input: { from: 'path' },
      answer: { kind: 'json', status: 200, description: 'The decided request' },
    },
  });
}

/** Actions that wait for approval: /api/v1/oms/actions, action-request and action-list. Deciding stays a human's, over REST. */
export const ACTION_OPERATIONS = [
  defineOperation({
    id: 'action-request',
    scope: 'oms:write',
    bucket: 'reads',
    input: ActionRequestInput,
    inputName: 'action request',
    output: ApprovalRequest,
    errors: ['invalid_input', 'not_found', 'payload_too_large'],
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (ctx, input) => requestAction(ctx, input),
    rest: {
      method: 'post',
      path: '/oms/actions',
      operationId: 'requestAction',
      summary: 'Request a change to the OMS; it waits for approval',
      description:
        'Stores a pending approval request (nothing changes yet). Another key with oms:approve approves or rejects it; unanswered, it expires after 7 days. ' +
        'Params are checked as an import line is; update_properties, delete_object and unlink need the object or link to exist (404 otherwise).',
      input: {
        from: 'body',
        name: 'ActionRequest',
        required: true,
        example: { action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics Inc.' } }, reason: 'Renamed in May' },
      },
      answer: { kind: 'json', status: 202, description: 'The pending approval request' },
    },
    mcp: {
      answersOutput: true,
      title: 'Request an OMS change',
      description:
        'Asks for a change to your organization\'s objects (companies, people, sources, briefs and their links): it is stored as a pending approval request, ' +
        'and nothing changes until a person with another key approves it (it expires after 7 days). Actions: upsert_object {type, key, properties}, ' +
        'update_properties {type, key, properties} (existing object, only the named properties), link and unlink {link, from: {type, key}, to: {type, key}}, ' +
        'delete_object {type, key}. Example: {"action": "update_properties", "params": {"type": "company", "key": "acme.com", "properties": {"name": "Acme Inc."}}, ' +
        '"reason": "Renamed in May"}. Returns the request (id, status pending, expiresAt); follow it with action-list.',
      confirm: async (ctx, input) => ({
        message: `File this approval request?\n${diffText(await previewAction(ctx, input))}\nNothing changes until a person with another key approves it.`,
        confirm: 'File this request',
        declined: `Approval request not filed: the ${input.action} was declined. Nothing was written.`,
      }),
      answer: (request) => oneRequest(request, `Approval request ${request.id} is waiting for a decision.`),
    },
  }),
  defineOperation({
    id: 'action-list',
    // Any OMS scope reads the requests: requesters follow theirs, approvers find what waits for them.
    scope: ['oms:read', 'oms:write', 'oms:approve'],
    bucket: 'reads',
    input: ListInput,
    output: z.union([ApprovalRequest, ApprovalRequestPage]),
    errors: ['invalid_input', 'not_found'],
    effects: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (ctx, { id, limit, cursor, status }, call) => {
      if (id !== undefined) {
        assertIdAlone(call, 'request');
        return getActionRequest(ctx, id);
      }
      return listActionRequests(ctx, limit, cursor, { status });
    },
    rest: {
      method: 'get',
      path: '/oms/actions',
      operationId: 'listActions',
      summary: "The organization's approval requests, newest first, or one by id",
      description: 'With id: that request. Without: a page of requests (filter by status), paged by nextCursor. Any of the oms:read, oms:write and oms:approve scopes reads them.',
      input: { from: 'query' },
      answer: { kind: 'json', status: 200, description: 'One request (with id) or a page of requests' },
    },
    mcp: {
      answersOutput: true,
      title: 'List approval requests',
      description:
        "Your organization's approval requests, newest first (filter by status: pending, approved, applied, failed, rejected, expired), or one by id. " +
        'An applied request changed the objects (their provenance names the request id); a failed one says why. Paged: pass nextCursor back as cursor.',
      answer: (result, { status }) => {
        if (!('requests' in result)) return oneRequest(result, `Approval request ${result.id}:`);
        const lines = [
          result.requests.length ? `${result.requests.length} approval request(s)${status ? ` ${status}` : ''}, newest first:` : `No approval requests${status ? ` ${status}` : ''}.`,
          ...result.requests.map(requestLine),
          ...(result.nextCursor ? [`More: call action-list again with cursor "${result.nextCursor}".`] : []),
        ];
        return { text: `${lines.join('\n')}\n`, structured: { ...result } };
      },
    },
  }),
  decideOperation('approve'),
  decideOperation('reject'),
];
