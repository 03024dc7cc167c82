import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { decide, historyOf, importLines, objectRow, provenanceOf, requestThroughRest, twoKeys } from './action-helpers.ts';

describe('an action requested with one key and approved with another', () => {
  it('updates properties, answering 202 pending then 200 applied, with provenance and history naming the request', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);

    const request = await requestThroughRest(requester.key, {
      action: 'update_properties',
      params: { type: 'company', key: 'https://WWW.Acme.com/', properties: { name: 'Acme Analytics' } },
      reason: 'Renamed in May',
    });
    expect(request).toMatchObject({
      action: 'update_properties',
      params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' } },
      reason: 'Renamed in May',
      status: 'pending',
      requestedBy: { keyId: requester.keyId },
      decidedAt: null,
      decidedBy: null,
      failure: null,
    });
    expect(request.id).toMatch(/^apr_/);
    expect(Date.parse(request.expiresAt) - Date.parse(request.createdAt)).toBe(7 * 24 * 3600 * 1000);
    // Nothing changes before the decision.
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme' });

    const response = await decide(approver.key, request.id, 'approve');
    expect(response.status).toBe(200);
    const decided = await response.json<ApprovalRequestView>();
    expect(decided).toMatchObject({ id: request.id, status: 'applied', decidedBy: { keyId: approver.keyId }, failure: null });
    expect(decided.decidedAt).not.toBeNull();

    const row = await objectRow(org, 'company', 'acme.com');
    expect(JSON.parse(row!.properties)).toEqual({ name: 'Acme Analytics' });
    expect(row!.version).toBe(2);
    expect(await provenanceOf(org, 'company', 'acme.com')).toEqual([{ name: 'name', kind: 'action', id: request.id }]);
    expect((await historyOf(org, 'company', 'acme.com')).at(-1)).toEqual({
      property: 'name',
      from: '"Acme"',
      to: '"Acme Analytics"',
      kind: 'action',
      id: request.id,
    });
  });

  it('creates an object with upsert_object, validated and normalized as an import line', async () => {
    const { org, requester, approver } = await twoKeys();
    const request = await requestThroughRest(requester.key, {
      action: 'upsert_object',
      params: { type: 'person', key: ' Ada@Example.COM ', properties: { name: 'Ada', title: 'CTO' } },
    });
    expect(request.params).toEqual({ type: 'person', key: 'ada@example.com', properties: { name: 'Ada', title: 'CTO' } });
    expect((await (await decide(approver.key, request.id, 'approve')).json<ApprovalRequestView>()).status).toBe('applied');
    expect(JSON.parse((await objectRow(org, 'person', 'ada@example.com'))!.properties)).toEqual({ name: 'Ada', title: 'CTO' });
    expect(await provenanceOf(org, 'person', 'ada@example.com')).toEqual([
      { name: 'name', kind: 'action', id: request.id },
      { name: 'title', kind: 'action', id: request.id },
    ]);
  });

  it('links and unlinks, recording the link with source kind action', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [
      { type: 'company', key: 'acme.com', properties: { name: 'Acme' } },
      { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
    ]);
    const link = { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'GLOBEX.com' } };
    const linked = await requestThroughRest(requester.key, { action: 'link', params: link });
    expect(linked.params).toEqual({ ...link, to: { type: 'company', key: 'globex.com' } });
    expect((await (await decide(approver.key, linked.id, 'approve')).json<ApprovalRequestView>()).status).toBe('applied');
    const stored = () =>
      env.DB.prepare('SELECT source_kind AS kind, source_id AS id FROM links WHERE organization_id = ? AND link = ? AND from_key = ? AND to_key = ?')
        .bind(org.id, 'competitors', 'acme.com', 'globex.com')
        .first();
    expect(await stored()).toEqual({ kind: 'action', id: linked.id });

    const unlinked = await requestThroughRest(requester.key, { action: 'unlink', params: link });
    expect((await (await decide(approver.key, unlinked.id, 'approve')).json<ApprovalRequestView>()).status).toBe('applied');
    expect(await stored()).toBeNull();
  });

  it('deletes an object with its links and provenance, keeping a deletion entry per property in its history', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [
      { type: 'company', key: 'acme.com', properties: { name: 'Acme', employees: 40 } },
      { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
      { link: 'competitors', from: { type: 'company', key: 'globex.com' }, to: { type: 'company', key: 'acme.com' } },
    ]);
    const request = await requestThroughRest(requester.key, { action: 'delete_object', params: { type: 'company', key: 'acme.com' } });
    const deleted = await (await decide(approver.key, request.id, 'approve')).json<ApprovalRequestView>();
    expect(deleted.failure).toBeNull();
    expect(deleted.status).toBe('applied');

    expect(await objectRow(org, 'company', 'acme.com')).toBeNull();
    expect(await provenanceOf(org, 'company', 'acme.com')).toEqual([]);
    const links = await env.DB.prepare('SELECT count(*) AS n FROM links WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
    expect(links!.n).toBe(0);
    expect((await historyOf(org, 'company', 'acme.com')).filter((h) => h.kind === 'action')).toEqual([
      { property: 'name', from: '"Acme"', to: null, kind: 'action', id: request.id },
      { property: 'employees', from: '40', to: null, kind: 'action', id: request.id },
    ]);
    // The other company is untouched.
    expect(await objectRow(org, 'company', 'globex.com')).not.toBeNull();
  });
});
