import { describe, expect, it } from 'vitest';
import { decideActionRequest, requestAction } from '../../src/operations/actions/actions.ts';
import { contextOf, historyOf, importLines, objectRow, twoKeys } from './action-helpers.ts';

/** `count` extra properties named `${prefix}0...` of 10,000 characters each: about 10 KB apiece. */
function extras(prefix: string, count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, 'x'.repeat(10_000)]));
}

describe('an approved change that would make the object too large', () => {
  it('ends failed in the batch that would have written it, writing nothing of the change', async () => {
    const { org, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: extras('a', 100) }]);
    const request = await requestAction(contextOf(org), { action: 'upsert_object', params: { type: 'company', key: 'acme.com', properties: extras('b', 60) } });

    const decided = await decideActionRequest(contextOf(org, approver.keyId), request.id, 'approve');
    expect(decided).toMatchObject({ status: 'failed', decidedBy: { keyId: approver.keyId } });
    expect(decided.failure).toBe(
      'company acme.com would pass the largest size an object may have (1.5 MiB of properties); request the change again against the current data.',
    );
    const row = await objectRow(org, 'company', 'acme.com');
    expect(row!.version).toBe(1);
    expect(Object.keys(JSON.parse(row!.properties))).toHaveLength(100);
    expect((await historyOf(org, 'company', 'acme.com')).filter((h) => h.id === request.id)).toEqual([]);
  });
});
