import { describe, expect, it } from 'vitest';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import app from '../src/app.ts';
import { call, createOrganization } from './helpers/fixtures.ts';

describe("the app's routes", () => {
  it("fit Hono's RegExpRouter (one regular expression per method), so the SmartRouter never falls back to its trie router", () => {
    const router = new RegExpRouter<unknown>();
    for (const route of app.routes) router.add(route.method, route.path, route.handler);
    expect(() => router.match('POST', '/api/v1/commands/research')).not.toThrow();
  });

  it('still send any other command name to the core: 404 naming the commands, after the scope check', async () => {
    const org = await createOrganization();
    const unknown = await call('/api/v1/commands/not-a-command', { key: org.key, body: {} });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'not_found', message: expect.stringContaining('research') });
    const noScope = await createOrganization({ scopes: ['oms:read'] });
    expect((await call('/api/v1/commands/not-a-command', { key: noScope.key, body: {} })).status).toBe(403);
    expect((await call('/api/v1/commands/a/b', { key: org.key, body: {} })).status).toBe(404);
  });
});
