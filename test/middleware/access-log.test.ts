import { describe, expect, it, vi } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

describe('request logs', () => {
  it('writes one JSON object per request with request id, organization and outcome, never the key', async () => {
    const org = await createOrganization({ profile: 'none' });
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    const response = await call('/api/v1/commands/research', {
      key: org.key,
      body: { topic: 'pricing' },
      headers: { 'X-Request-Id': 'req-from-client-1' },
    });
    spy.mockRestore();

    expect(response.status).toBe(428);
    expect(response.headers.get('X-Request-Id')).toBe('req-from-client-1');
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'request',
        requestId: 'req-from-client-1',
        method: 'POST',
        path: '/api/v1/commands/research',
        status: 428,
        organization: org.slug,
        keyId: org.keyId,
        outcome: 'onboarding_required',
      }),
    );
    expect(lines.join('\n')).not.toContain(org.key);
  });
});
