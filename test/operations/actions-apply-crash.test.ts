import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { decideActionRequest, getActionRequest, type ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { contextOf, decide, historyOf, importLines, objectRow, provenanceOf, requestThroughRest, twoKeys } from './action-helpers.ts';
import { batchHas, CHANGES, contextWithDb, interposedDb } from './action-interpose.ts';

// The write of an approved change fails. The request must end failed with why (or, if even that
// cannot be written, stay pending), never `approved`, and nothing of the change may be written.

const ACME = { type: 'company', key: 'acme.com' } as const;

async function setUp() {
  const { org, requester, approver } = await twoKeys();
  await importLines(org, [{ ...ACME, properties: { name: 'Acme' } }]);
  const request = await requestThroughRest(requester.key, { action: 'update_properties', params: { ...ACME, properties: { name: 'Acme Renamed' } } });
  return { org, approver, request };
}

async function unchanged(org: Parameters<typeof contextOf>[0], id: string) {
  const row = await objectRow(org, 'company', 'acme.com');
  expect(row!.version).toBe(1);
  expect(JSON.parse(row!.properties)).toEqual({ name: 'Acme' });
  expect((await historyOf(org, 'company', 'acme.com')).filter((h) => h.id === id)).toEqual([]);
  expect(await provenanceOf(org, 'company', 'acme.com')).toEqual([{ name: 'name', kind: 'import', id: expect.any(String) }]);
}

describe('an approved change whose write fails', () => {
  it('ends failed with the reason when a statement of the batch fails after the change ran, and the change is rolled back', async () => {
    const { org, approver, request } = await setUp();
    let injected = 0;
    // A statement that fails at the end of the change's batch: the object's upsert, provenance and
    // history have run in the transaction by then, and must be rolled back with it.
    const db = interposedDb(async (statements) => {
      if (!batchHas(statements, CHANGES)) return;
      injected++;
      return [...statements, env.DB.prepare(`SELECT json('a statement that fails')`)];
    });
    const decided = await decideActionRequest(contextWithDb(org, approver.keyId, db), request.id, 'approve');
    expect(injected).toBe(1);
    expect(decided).toMatchObject({ status: 'failed', decidedBy: { keyId: approver.keyId } });
    expect(decided.decidedAt).not.toBeNull();
    expect(decided.failure).toBe(
      'the change could not be written (Something went wrong on our side; quote request id test if you report it.); request the change again against the current data.',
    );
    await unchanged(org, request.id);
    const rest = await (await decide(approver.key, request.id, 'approve')).json<{ error: string }>();
    expect(rest.error).toBe('conflict');
  });

  it('leaves the request pending (never approved) when the failure cannot be recorded either, so it can be approved again', async () => {
    const { org, approver, request } = await setUp();
    const down = { on: true };
    const real = interposedDb(async (statements) => {
      if (down.on && batchHas(statements, CHANGES)) throw new Error('D1 is unavailable (test)');
    });
    // The statement that would record the outcome fails as well.
    const db = new Proxy(real, {
      get(target, prop) {
        if (prop === 'prepare') {
          return (sql: string) => {
            if (down.on && /^\s*UPDATE approval_requests SET status = \?3/.test(sql)) throw new Error('D1 is still unavailable (test)');
            return target.prepare(sql);
          };
        }
        return Reflect.get(target, prop, target) as unknown;
      },
    });
    await expect(decideActionRequest(contextWithDb(org, approver.keyId, db), request.id, 'approve')).rejects.toThrow('D1 is still unavailable (test)');

    const after = await getActionRequest(contextOf(org), request.id);
    expect(after).toMatchObject({ status: 'pending', decidedAt: null, decidedBy: null, failure: null });
    await unchanged(org, request.id);

    const response = await decide(approver.key, request.id, 'approve');
    expect(response.status).toBe(200);
    expect(await response.json<ApprovalRequestView>()).toMatchObject({ status: 'applied', failure: null });
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme Renamed' });
  });
});
