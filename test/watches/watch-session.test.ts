import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { WatchObject } from '../../src/watches/watch-object.ts';
import { laterBookmark } from '../../src/ground/db-session.ts';
import { createAndSettle, marketOrganization, runNow, stubOf } from './helpers.ts';

/**
 * A watch object keeps one D1 session across its executions: the bookmark of what an execution
 * wrote (its brief, its charge's mirror row) is kept in the object's storage, and the next
 * execution starts from at least it, so it never reads older data than the one before it wrote.
 */

const keptBy = (id: string) => runInDurableObject(stubOf(id), (instance: WatchObject) => instance.db.kept());

describe("a watch object's D1 session", () => {
  it('keeps the bookmark of each execution, moving forward only', async () => {
    const org = await marketOrganization();
    const watch = await createAndSettle(org.key);
    const afterFirst = await keptBy(watch.id);
    expect(afterFirst).not.toBeNull();

    const second = await runNow(org.key, watch.id);
    expect(second.outcome).toBe('succeeded');
    const afterSecond = await keptBy(watch.id);
    expect(afterSecond).not.toBe(afterFirst);
    expect(laterBookmark(afterSecond, afterFirst)).toBe(afterSecond);
  });
});
