import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

describe('CORS for browser clients', () => {
  it('answers a preflight without a key', async () => {
    const response = await call('/api/v1/commands/research', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Access-Control-Allow-Headers')).toMatch(/Authorization/i);
  });

  it('exposes the run and request headers to browser code', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands', { key: org.key, headers: { Origin: 'https://app.example.com' } });
    expect(response.headers.get('Access-Control-Expose-Headers')).toMatch(/X-Run-Id.*X-Run-Status/);
  });
});
