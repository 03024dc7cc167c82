import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { MAX_PAGE_TOKEN_LENGTH } from '../ground/page-token.ts';
import { DomainError } from '../ground/errors.ts';
import {
  ActionListFilter,
  APPROVAL_STATUSES,
  ActionRequestInput,
  ACTIONS,
  decideActionRequest,
  getActionRequest,
  listActionRequests,
  requestAction,
} from '../operations/actions.ts';
import type { AppEnv } from '../env.ts';
import { readJsonObject } from './json-body.ts';
import { documentedBody, errors, json, KEYED } from './openapi-parts.ts';
import { refuseInvalid } from './validation-hook.ts';

const KeyRef = z.object({ keyId: z.string() });

export const ApprovalRequest = z
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

export const actions = new OpenAPIHono<AppEnv>();

const requestRoute = createRoute({
  method: 'post',
  path: '/',
  operationId: 'requestAction',
  summary: 'Request a change to the OMS; it waits for approval',
  description:
    'Stores a pending approval request (nothing changes yet). Another key with oms:approve approves or rejects it; unanswered, it expires after 7 days. ' +
    'Params are checked as an import line is; update_properties, delete_object and unlink need the object or link to exist (404 otherwise).',
  'x-required-scope': 'oms:write',
  request: {
    body: documentedBody(actions, 'ActionRequest', ActionRequestInput, {
      required: true,
      example: { action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics Inc.' } }, reason: 'Renamed in May' },
    }),
  },
  responses: { 202: json('The pending approval request', ApprovalRequest), ...errors(400, ...KEYED, 404, 413) },
});

const ListQuery = z.strictObject({
  id: z.string().max(100).optional().describe('One request by its id (then no other parameter).'),
  ...ActionListFilter.shape,
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Requests per page, 1-100 (default 20).'),
  cursor: z.string().max(MAX_PAGE_TOKEN_LENGTH).optional().describe("The previous page's nextCursor; valid for a day, for your organization and the same status filter only."),
});

const listRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listActions',
  summary: "The organization's approval requests, newest first, or one by id",
  description: 'With id: that request. Without: a page of requests (filter by status), paged by nextCursor. Any of the oms:read, oms:write and oms:approve scopes reads them.',
  'x-required-scope': 'oms:read',
  request: { query: ListQuery },
  responses: { 200: json('One request (with id) or a page of requests', z.union([ApprovalRequest, ApprovalRequestPage])), ...errors(400, ...KEYED, 404) },
});

const decideRoute = (decision: 'approve' | 'reject') =>
  createRoute({
    method: 'post',
    path: `/{id}/${decision}`,
    operationId: `${decision}Action`,
    summary: decision === 'approve' ? 'Approve a pending request, which applies its change at once' : 'Reject a pending request',
    description:
      decision === 'approve'
        ? 'Applies the change with provenance kind action and the request id; the answer is the request, applied, or failed with the reason (the object changed or is gone). The requesting key cannot approve its own request (403).'
        : 'The request ends rejected; nothing changes.',
    'x-required-scope': 'oms:approve',
    request: { params: z.object({ id: z.string().max(100).describe('The approval request id.') }) },
    responses: { 200: json('The decided request', ApprovalRequest), ...errors(400, ...KEYED, 404, 409) },
  });

const approveRoute = decideRoute('approve');
const rejectRoute = decideRoute('reject');

actions
  .openapi(requestRoute, async (c) => c.json(await requestAction(c.var.core, await readJsonObject(c)), 202))
  .openapi(
    listRoute,
    async (c) => {
      const { id, limit, cursor, status } = c.req.valid('query');
      if (id !== undefined) {
        const extra = Object.keys(c.req.queries()).filter((name) => name !== 'id');
        if (extra.length) {
          throw new DomainError('invalid_input', `Invalid query: id names one request; send it without ${extra.join(', ')}.`, {
            details: extra.map((name) => ({ path: name, message: `${name} cannot be combined with id` })),
          });
        }
        return c.json(await getActionRequest(c.var.core, id), 200);
      }
      return c.json(await listActionRequests(c.var.core, limit, cursor, { status }), 200);
    },
    refuseInvalid(listRoute),
  )
  .openapi(approveRoute, async (c) => c.json(await decideActionRequest(c.var.core, c.req.valid('param').id, 'approve'), 200), refuseInvalid(approveRoute))
  .openapi(rejectRoute, async (c) => c.json(await decideActionRequest(c.var.core, c.req.valid('param').id, 'reject'), 200), refuseInvalid(rejectRoute));
