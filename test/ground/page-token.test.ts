import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PAGE_TOKEN_TTL_SECONDS, readPageToken, signPageToken } from '../../src/ground/page-token.ts';
import { DomainError } from '../../src/ground/errors.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

const Position = z.tuple([z.string(), z.string()]);
const scope = { organizationId: 'org_a', list: 'runs' };

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('invalid_input');
  expect((error as DomainError).details).toEqual([{ path: 'cursor', message: 'invalid or expired page token' }]);
  return error as DomainError;
}

/** The token with one character of its payload or signature changed. */
function flip(token: string, index: number): string {
  const char = token[index] === 'A' ? 'B' : 'A';
  return token.slice(0, index) + char + token.slice(index + 1);
}

describe('page tokens', () => {
  it('give back the position they were signed with, for the same organization and list', async () => {
    const token = await signPageToken(env, scope, ['2026-11-23T10:00:00.000Z', 'abc']);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    await expect(readPageToken(env, token, scope, Position, 'cursor')).resolves.toEqual(['2026-11-23T10:00:00.000Z', 'abc']);
  });

  it('refuse a token whose payload or signature was changed', async () => {
    const token = await signPageToken(env, scope, ['2026-11-23T10:00:00.000Z', 'abc']);
    const dot = token.indexOf('.');
    await rejection(readPageToken(env, flip(token, 2), scope, Position, 'cursor'));
    await rejection(readPageToken(env, flip(token, dot + 2), scope, Position, 'cursor'));
    await rejection(readPageToken(env, token.slice(0, dot), scope, Position, 'cursor'));
    await rejection(readPageToken(env, `${token}.x`, scope, Position, 'cursor'));
  });

  it('refuse a position forged with a plain (unsigned) payload, as the old cursors were', async () => {
    const forged = btoa(JSON.stringify(['9999-01-01', 'zzz'])).replace(/=+$/, '');
    await rejection(readPageToken(env, forged, scope, Position, 'cursor'));
    await rejection(readPageToken(env, `${forged}.${forged}`, scope, Position, 'cursor'));
  });

  it("refuse another organization's token and another list's token", async () => {
    const other = await signPageToken(env, { organizationId: 'org_b', list: 'runs' }, ['x', 'y']);
    await rejection(readPageToken(env, other, scope, Position, 'cursor'));
    const otherList = await signPageToken(env, { organizationId: 'org_a', list: 'watches' }, ['x', 'y']);
    await rejection(readPageToken(env, otherList, scope, Position, 'cursor'));
  });

  it('expire after a day', async () => {
    const issued = Date.now();
    const token = await signPageToken(env, scope, ['x', 'y'], issued);
    await expect(readPageToken(env, token, scope, Position, 'cursor', issued + (PAGE_TOKEN_TTL_SECONDS - 1) * 1000)).resolves.toEqual(['x', 'y']);
    await rejection(readPageToken(env, token, scope, Position, 'cursor', issued + PAGE_TOKEN_TTL_SECONDS * 1000));
  });

  it('refuse a signed position of the wrong shape, and oversized input before decoding it', async () => {
    const token = await signPageToken(env, scope, { not: 'a tuple' });
    await rejection(readPageToken(env, token, scope, Position, 'cursor'));
    await rejection(readPageToken(env, 'A'.repeat(5000), scope, Position, 'cursor'));
  });

  it("GET /api/v1/runs: a modified or another organization's cursor is 400 invalid_input", async () => {
    const a = await createOrganization();
    const b = await createOrganization();
    for (let i = 0; i < 2; i++) {
      expect((await call('/api/v1/commands/gtm-audit', { key: a.key, body: { focus: ['pricing'] } })).status).toBe(202);
      expect((await call('/api/v1/commands/gtm-audit', { key: b.key, body: { focus: ['pricing'] } })).status).toBe(202);
    }
    const page = await (await call('/api/v1/runs?limit=1', { key: a.key })).json<{ nextCursor: string }>();
    expect(page.nextCursor).toEqual(expect.any(String));

    const foreign = await call(`/api/v1/runs?limit=1&cursor=${page.nextCursor}`, { key: b.key });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ error: 'invalid_input', details: [{ path: 'cursor' }] });

    const tampered = await call(`/api/v1/runs?limit=1&cursor=${flip(page.nextCursor, 3)}`, { key: a.key });
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ error: 'invalid_input', message: expect.stringMatching(/start again without it/) });

    const own = await call(`/api/v1/runs?limit=1&cursor=${page.nextCursor}`, { key: a.key });
    expect(own.status).toBe(200);
  });

  it("MCP tasks/list: another organization's cursor is invalid_input there too", async () => {
    const a = await createOrganization();
    const b = await createOrganization();
    for (let i = 0; i < 2; i++) expect((await call('/api/v1/commands/gtm-audit', { key: a.key, body: { focus: ['pricing'] } })).status).toBe(202);
    const page = await (await call('/api/v1/runs?limit=1', { key: a.key })).json<{ nextCursor: string }>();
    const response = await mcpRpc(
      { jsonrpc: '2.0', id: 1, method: 'tasks/list', params: { cursor: page.nextCursor } },
      { key: b.key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } },
    );
    const answer = await response.json<{ error?: { code: number; data?: { error: string; details?: unknown } } }>();
    expect(answer.error).toMatchObject({ code: -32602, data: { error: 'invalid_input', details: [{ path: 'cursor' }] } });
  });
});
