import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { isBookmark, laterBookmark } from '../../src/ground/db-session.ts';
import { createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { envWith, executionContext, recordingSessions, type SessionLog } from '../helpers/recording-sessions.ts';

/**
 * Read-your-writes over REST (src/middleware/bookmark-header.ts): each answer carries the request's
 * D1 bookmark in X-Recon-Bookmark, and a request that sends it back has its session continue from
 * it. The app runs against the real D1 binding with its sessions recorded.
 */

const HEADER = 'X-Recon-Bookmark';

interface Client {
  org: TestOrganization;
  log: SessionLog;
  send(path: string, init?: { method?: string; body?: string; headers?: Record<string, string> }): Promise<Response>;
}

async function client(): Promise<Client> {
  const org = await createOrganization();
  const { DB, log } = recordingSessions();
  const recorded = envWith(DB);
  return {
    org,
    log,
    async send(path, init = {}) {
      const { ctx, settled } = executionContext();
      const headers = { Authorization: `Bearer ${org.key}`, 'Content-Type': 'application/json', ...init.headers };
      const response = await app.request(`https://recon.test${path}`, { method: init.method ?? 'GET', body: init.body, headers }, recorded, ctx);
      await settled();
      return response;
    },
  };
}

const companyLine = (key: string, name: string) => JSON.stringify({ type: 'company', key, properties: { name, domain: key } });

describe('X-Recon-Bookmark', () => {
  it("sends back the bookmark of the request's one session", async () => {
    const c = await client();
    const response = await c.send('/api/v1/profile');
    expect(response.status).toBe(200);
    expect(c.log.sessions).toHaveLength(1);
    const sent = response.headers.get(HEADER);
    expect(sent).toBe(c.log.sessions[0]!.getBookmark());
    expect(isBookmark(sent!)).toBe(true);
  });

  it('lets a client read its own write: the read continues from the bookmark of the write', async () => {
    const c = await client();
    const key = `own-write-${crypto.randomUUID().slice(0, 8)}.example`;
    const write = await c.send('/api/v1/oms/objects/import', {
      method: 'POST',
      body: companyLine(key, 'Written Co'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(write.status).toBe(200);
    const afterWrite = write.headers.get(HEADER)!;
    expect(isBookmark(afterWrite)).toBe(true);

    c.log.starts.length = 0;
    const read = await c.send('/api/v1/oms/objects/get', { method: 'POST', body: JSON.stringify({ type: 'company', key }), headers: { [HEADER]: afterWrite } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ key, properties: { name: 'Written Co' } });
    // The read (recent data: an OMS read) started from the write's bookmark, not at any replica.
    expect(c.log.starts).toEqual([afterWrite]);
    const afterRead = read.headers.get(HEADER)!;
    expect(laterBookmark(afterRead, afterWrite)).toBe(afterRead);
  });

  it('is on error answers too', async () => {
    const c = await client();
    const missing = await c.send('/api/v1/oms/objects/get', { method: 'POST', body: JSON.stringify({ type: 'company', key: 'nobody-here.example' }) });
    expect(missing.status).toBe(404);
    expect(missing.headers.get(HEADER)).toBe(c.log.sessions.at(-1)!.getBookmark());
  });

  it('without one, lets a read of recent data start at any replica', async () => {
    const c = await client();
    await c.send('/api/v1/profile'); // the key is looked up (at the primary) and cached
    c.log.starts.length = 0;
    const read = await c.send('/api/v1/oms/objects/search', { method: 'POST', body: JSON.stringify({ type: 'company' }) });
    expect(read.status).toBe(200);
    expect(c.log.starts).toEqual(['first-unconstrained']);
  });

  it('starts a write at the primary whatever bookmark the client sent', async () => {
    const c = await client();
    const first = await c.send('/api/v1/profile');
    c.log.starts.length = 0;
    const response = await c.send('/api/v1/oms/objects/import', {
      method: 'POST',
      body: companyLine(`primary-${crypto.randomUUID().slice(0, 8)}.example`, 'Primary Co'),
      headers: { 'Content-Type': 'application/x-ndjson', [HEADER]: first.headers.get(HEADER)! },
    });
    expect(response.status).toBe(200);
    expect(c.log.starts).toEqual(['first-primary']);
  });

  it('is absent when the request did no D1 work (no session opened) and the client sent none; echoed when it sent one', async () => {
    const c = await client();
    const first = await c.send('/api/v1/commands');
    const bookmark = first.headers.get(HEADER)!;
    expect(isBookmark(bookmark)).toBe(true); // the key's lookup
    c.log.starts.length = 0;
    const cached = await c.send('/api/v1/commands');
    expect(cached.status).toBe(200);
    expect(cached.headers.get(HEADER)).toBeNull();
    // An authed read the key cache answers opens no session: no D1 round trip at all.
    expect(c.log.starts).toEqual([]);
    const echoed = await c.send('/api/v1/commands', { headers: { [HEADER]: bookmark } });
    expect(echoed.headers.get(HEADER)).toBe(bookmark);
  });

  it.each([
    ['too long', `${'0'.repeat(200)}-1`],
    ['not a bookmark', 'first-primary'],
    ['upper case', '00000000-0000001A-00000000-00000000000000000000000000000000'],
  ])('refuses one that is %s with the JSON 400 invalid_input, before the operation runs', async (_case, value) => {
    const c = await client();
    await c.send('/api/v1/profile');
    c.log.starts.length = 0;
    const response = await c.send('/api/v1/oms/objects/import', {
      method: 'POST',
      body: companyLine('refused.example', 'Refused Co'),
      headers: { 'Content-Type': 'application/x-ndjson', [HEADER]: value },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_input', details: [{ path: HEADER }], requestId: expect.any(String) });
    expect(c.log.starts).toEqual([]);
  });
});
