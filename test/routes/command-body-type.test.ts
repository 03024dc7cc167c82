import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

// The OpenAPI library would check the Content-Type of a body it validates (415 otherwise); bodies
// are documented there but read and validated by the core, so what curl sends works as documented.
describe('a command body', () => {
  it('is read as JSON whatever its Content-Type says (curl -d sends form encoding)', async () => {
    const org = await createOrganization();
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const response = await call('/api/v1/commands/competitors', { key: org.key, rawBody: '{"limit": 3}', headers: { 'Content-Type': type } });
      expect(response.status, type).toBe(200);
      expect(response.headers.get('Content-Type')).toMatch(/^text\/markdown/);
    }
    const none = await call('/api/v1/commands/help', { key: org.key, method: 'POST' });
    expect(none.status).toBe(200);
  });

  it('is refused by the core with its own message, not by the route, whatever its Content-Type', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands/research', {
      key: org.key,
      rawBody: '{"topic": "pricing", "tpoic": 1}',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'invalid_input',
      message: expect.stringMatching(/^Invalid arguments of research: /),
      details: [{ path: 'tpoic', message: "unknown field 'tpoic'" }],
    });
  });
});
