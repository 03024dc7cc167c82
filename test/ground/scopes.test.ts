import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

describe('scopes', () => {
  it.each([
    ['GET', '/api/v1/commands', undefined],
    ['POST', '/api/v1/commands/help', {}],
    ['GET', '/api/v1/profile', undefined],
    ['PUT', '/api/v1/profile', {}],
  ])('%s %s needs the commands scope: 403 access_denied without it', async (method, path, body) => {
    const org = await createOrganization({ scopes: ['oms:read'] });
    const response = await call(path, { key: org.key, method, body });
    expect(response.status).toBe(403);
    const error = await response.json<{ error: string; message: string }>();
    expect(error.error).toBe('access_denied');
    expect(error.message).toContain("'commands' scope");
  });

  it('lets any valid key read the OpenAPI document', async () => {
    const org = await createOrganization({ scopes: ['oms:read'] });
    expect((await call('/api/v1/openapi.json', { key: org.key })).status).toBe(200);
  });
});
