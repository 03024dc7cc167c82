import { describe, expect, it } from 'vitest';
import { isBookmark, laterBookmark } from '../../src/ground/db-session.ts';
import { call } from '../helpers/fixtures.ts';
import { createAndSettle, marketOrganization, stubOf } from './helpers.ts';

/**
 * A watch object writes its D1 mirror through its own session, not the request's. The request
 * observes the object's bookmark, so the X-Recon-Bookmark it answers covers the object's write: a
 * client that sends it back reads the watch as that request left it, on any replica.
 */

describe("the bookmark of a request that had a watch object write", () => {
  it("is at least the object's bookmark after the write (cancel writes the mirror row)", async () => {
    const org = await marketOrganization();
    const watch = await createAndSettle(org.key);
    const response = await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key, method: 'DELETE' });
    expect(response.status).toBe(200);
    const sent = response.headers.get('X-Recon-Bookmark');
    expect(sent).not.toBeNull();
    expect(isBookmark(sent!)).toBe(true);
    const objects = await stubOf(watch.id).d1Bookmark();
    expect(objects).not.toBeNull();
    expect(laterBookmark(sent, objects)).toBe(sent);

    const listed = await call('/api/v1/oms/watches?status=cancelled', { key: org.key, headers: { 'X-Recon-Bookmark': sent! } });
    expect(listed.status).toBe(200);
    const ids = ((await listed.json()) as { watches: { id: string }[] }).watches.map((w) => w.id);
    expect(ids).toContain(watch.id);
  });
});
