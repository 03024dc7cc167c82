import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { decideActionRequest, getActionRequest, type ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { deleteLink, deleteObject, writeObjects, type LinkWrite } from '../../src/oms/store.ts';
import { call } from '../helpers/fixtures.ts';
import { contextOf, decide, historyOf, importLines, objectRow, provenanceOf, requestThroughRest, twoKeys } from './action-helpers.ts';
import { batchHas, CHANGES, contextWithDb, interposedDb } from './action-interpose.ts';

// Another writer (an import, research, a watch, another approval) lands after the approval has
// read what it checks and before its batch commits. The batch's guards must refuse the change.

const AGAIN = '; request the change again against the current data.';
const IMPORT = { kind: 'import', id: 'imp_concurrent' } as const;
const ACME = { type: 'company', key: 'acme.com' } as const;
const GLOBEX = { type: 'company', key: 'globex.com' } as const;
const COMPETITORS: LinkWrite = { link: 'competitors', from: ACME, to: GLOBEX };

/** Approves `id` as `approverKeyId`, running `concurrent` once, right before the batch that would change objects or links. */
async function approveWithConcurrentWrite(org: Parameters<typeof contextOf>[0], approverKeyId: string, id: string, concurrent: () => Promise<unknown>) {
  let fired = 0;
  const db = interposedDb(async (statements) => {
    if (fired === 0 && batchHas(statements, CHANGES)) {
      fired++;
      await concurrent();
    }
  });
  const decided = await decideActionRequest(contextWithDb(org, approverKeyId, db), id, 'approve');
  expect(fired, 'the concurrent write ran between the reads and the batch').toBe(1);
  return decided;
}

async function actionTrail(org: Parameters<typeof contextOf>[0], id: string, ...objects: { type: string; key: string }[]) {
  const trail = [];
  for (const o of objects) {
    trail.push(...(await historyOf(org, o.type, o.key)).filter((h) => h.id === id));
    trail.push(...(await provenanceOf(org, o.type, o.key)).filter((p) => p.id === id));
  }
  return trail;
}

describe('a write that lands between the approval check and its batch', () => {
  it('fails update_properties when an import moved the version, keeping the import (no silent overwrite)', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ ...ACME, properties: { name: 'Acme', description: 'Old' } }]);
    const request = await requestThroughRest(requester.key, { action: 'update_properties', params: { ...ACME, properties: { description: 'From the action' } } });

    const decided = await approveWithConcurrentWrite(org, approver.keyId, request.id, () =>
      writeObjects(env.DB, org.id, [{ ...ACME, properties: { name: 'Acme Analytics' } }], [], IMPORT),
    );
    expect(decided).toMatchObject({ status: 'failed', decidedBy: { keyId: approver.keyId } });
    expect(decided.failure).toBe(`company acme.com changed after the request (version 1 then, 2 now)${AGAIN}`);
    const row = await objectRow(org, 'company', 'acme.com');
    expect(row!.version).toBe(2);
    expect(JSON.parse(row!.properties)).toEqual({ name: 'Acme Analytics', description: 'Old' });
    expect(await actionTrail(org, request.id, ACME)).toEqual([]);
    // Both doors read the same outcome.
    const rest = await (await call(`/api/v1/oms/actions?id=${request.id}`, { key: approver.key })).json<ApprovalRequestView>();
    expect(rest).toEqual(decided);
  });

  it('fails upsert_object of a new object when another writer created it meanwhile', async () => {
    const { org, requester, approver } = await twoKeys();
    const request = await requestThroughRest(requester.key, { action: 'upsert_object', params: { ...ACME, properties: { name: 'Acme by action' } } });

    const decided = await approveWithConcurrentWrite(org, approver.keyId, request.id, () =>
      writeObjects(env.DB, org.id, [{ ...ACME, properties: { name: 'Acme by import' } }], [], IMPORT),
    );
    expect(decided.status).toBe('failed');
    expect(decided.failure).toBe(`company acme.com was created after the request${AGAIN}`);
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme by import' });
    expect(await actionTrail(org, request.id, ACME)).toEqual([]);
  });

  it('fails delete_object when the object changed meanwhile, deleting nothing', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ ...ACME, properties: { name: 'Acme' } }, { ...GLOBEX, properties: { name: 'Globex' } }, { ...COMPETITORS }]);
    const request = await requestThroughRest(requester.key, { action: 'delete_object', params: ACME });

    const decided = await approveWithConcurrentWrite(org, approver.keyId, request.id, () =>
      writeObjects(env.DB, org.id, [{ ...ACME, properties: { employees: 50 } }], [], IMPORT),
    );
    expect(decided.failure).toBe(`company acme.com changed after the request (version 1 then, 2 now)${AGAIN}`);
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme', employees: 50 });
    const links = await env.DB.prepare('SELECT count(*) AS n FROM links WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
    expect(links!.n).toBe(1);
    expect(await actionTrail(org, request.id, ACME)).toEqual([]);
  });

  it('fails link when an end was deleted meanwhile, writing no dangling link', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ ...ACME, properties: { name: 'Acme' } }, { ...GLOBEX, properties: { name: 'Globex' } }]);
    const request = await requestThroughRest(requester.key, { action: 'link', params: COMPETITORS });

    const decided = await approveWithConcurrentWrite(org, approver.keyId, request.id, () => deleteObject(env.DB, org.id, GLOBEX, { kind: 'action', id: 'apr_other' }));
    expect(decided.failure).toBe(`company globex.com no longer exists${AGAIN}`);
    const links = await env.DB.prepare('SELECT count(*) AS n FROM links WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
    expect(links!.n).toBe(0);
  });

  it('fails unlink when the link was removed meanwhile, instead of reporting a removal that did not happen', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ ...ACME, properties: { name: 'Acme' } }, { ...GLOBEX, properties: { name: 'Globex' } }, { ...COMPETITORS }]);
    const request = await requestThroughRest(requester.key, { action: 'unlink', params: COMPETITORS });

    const decided = await approveWithConcurrentWrite(org, approver.keyId, request.id, () => deleteLink(env.DB, org.id, COMPETITORS));
    expect(decided.failure).toBe(`the competitors link from company acme.com to company globex.com no longer exists${AGAIN}`);
  });

  it('answers 409 and writes nothing when another key rejected the request meanwhile', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ ...ACME, properties: { name: 'Acme' } }]);
    const request = await requestThroughRest(requester.key, { action: 'update_properties', params: { ...ACME, properties: { name: 'Acme Renamed' } } });

    let fired = 0;
    const db = interposedDb(async (statements) => {
      if (fired === 0 && batchHas(statements, CHANGES)) {
        fired++;
        expect((await decide(requester.key, request.id, 'reject')).status).toBe(200);
      }
    });
    await expect(decideActionRequest(contextWithDb(org, approver.keyId, db), request.id, 'approve')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`Approval request ${request.id} is rejected since`),
    });
    expect(fired).toBe(1);
    expect(await getActionRequest(contextOf(org), request.id)).toMatchObject({ status: 'rejected', decidedBy: { keyId: requester.keyId }, failure: null });
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme' });
    expect(await actionTrail(org, request.id, ACME)).toEqual([]);
  });

  it('still applies when the concurrent write touched another object', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ ...ACME, properties: { name: 'Acme' } }, { ...GLOBEX, properties: { name: 'Globex' } }]);
    const request = await requestThroughRest(requester.key, { action: 'update_properties', params: { ...ACME, properties: { name: 'Acme Analytics' } } });

    const decided = await approveWithConcurrentWrite(org, approver.keyId, request.id, () =>
      writeObjects(env.DB, org.id, [{ ...GLOBEX, properties: { name: 'Globex Corp' } }], [], IMPORT),
    );
    expect(decided).toMatchObject({ status: 'applied', failure: null });
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme Analytics' });
    expect(await provenanceOf(org, 'company', 'acme.com')).toEqual([{ name: 'name', kind: 'action', id: request.id }]);
  });
});
