import { z } from 'zod';
import { MAX_PAGE_TOKEN_LENGTH } from '../../ground/page-token.ts';
import { parseInput } from '../../ground/validation.ts';
import {
  ActionListFilter,
  ActionRequestInput,
  getActionRequest,
  listActionRequests,
  requestAction,
  type ApprovalRequestView,
} from '../../operations/actions.ts';
import type { ToolDefinition } from './registry.ts';

export const ActionListInput = z.strictObject({
  id: z.string().max(100).optional().describe('One request by its id (then no other argument).'),
  ...ActionListFilter.shape,
  limit: z.int().min(1).max(100).default(20).describe('Requests per page, 1-100 (default 20).'),
  cursor: z.string().max(MAX_PAGE_TOKEN_LENGTH).optional().describe("The previous page's nextCursor."),
});

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

const NEXT =
  'A person with another key that has oms:approve decides it: POST /api/v1/oms/actions/{id}/approve or /reject (no MCP tool approves).';

function oneRequest(request: ApprovalRequestView, heading: string) {
  const text = [heading, requestLine(request), ...(request.status === 'pending' ? [NEXT.replace('{id}', request.id)] : [])].join('\n');
  return { content: [{ type: 'text' as const, text: `${text}\n` }], structuredContent: { ...request } };
}

/** action-request and action-list: POST and GET /api/v1/oms/actions, over the same core. Approval stays a human decision over REST. */
export const actionTools: ToolDefinition[] = [
  {
    name: 'action-request',
    title: 'Request an OMS change',
    description:
      'Asks for a change to your organization\'s objects (companies, people, sources, briefs and their links): it is stored as a pending approval request, ' +
      'and nothing changes until a person with another key approves it (it expires after 7 days). Actions: upsert_object {type, key, properties}, ' +
      'update_properties {type, key, properties} (existing object, only the named properties), link and unlink {link, from: {type, key}, to: {type, key}}, ' +
      'delete_object {type, key}. Example: {"action": "update_properties", "params": {"type": "company", "key": "acme.com", "properties": {"name": "Acme Inc."}}, ' +
      '"reason": "Renamed in May"}. Returns the request (id, status pending, expiresAt); follow it with action-list.',
    input: ActionRequestInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scope: 'oms:write',
    bucket: 'reads',
    async call(ctx, args) {
      const request = await requestAction(ctx, args);
      return oneRequest(request, `Approval request ${request.id} is waiting for a decision.`);
    },
  },
  {
    name: 'action-list',
    title: 'List approval requests',
    description:
      "Your organization's approval requests, newest first (filter by status: pending, approved, applied, failed, rejected, expired), or one by id. " +
      'An applied request changed the objects (their provenance names the request id); a failed one says why. Paged: pass nextCursor back as cursor.',
    input: ActionListInput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // As GET /api/v1/oms/actions: any OMS scope reads the requests.
    scope: ['oms:read', 'oms:write', 'oms:approve'],
    bucket: 'reads',
    async call(ctx, args) {
      const { id, limit, cursor, status } = parseInput(ActionListInput, args, 'arguments of action-list');
      if (id !== undefined) {
        const request = await getActionRequest(ctx, id);
        return oneRequest(request, `Approval request ${request.id}:`);
      }
      const page = await listActionRequests(ctx, limit, cursor, { status });
      const lines = [
        page.requests.length ? `${page.requests.length} approval request(s)${status ? ` ${status}` : ''}, newest first:` : `No approval requests${status ? ` ${status}` : ''}.`,
        ...page.requests.map(requestLine),
        ...(page.nextCursor ? [`More: call action-list again with cursor "${page.nextCursor}".`] : []),
      ];
      return { content: [{ type: 'text', text: `${lines.join('\n')}\n` }], structuredContent: { ...page } };
    },
  },
];
