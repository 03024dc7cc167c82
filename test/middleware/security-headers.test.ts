import { Hono, type Handler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../src/middleware/security-headers.ts';

/** The same handler behind hono's secureHeaders({ overwrite: false }) and behind ours. */
async function bothAnswers(path: string, handler: Handler): Promise<[Headers, Headers]> {
  const hono = new Hono().use(secureHeaders({ overwrite: false })).get(path, handler);
  const ours = new Hono().use(securityHeaders()).get(path, handler);
  const [a, b] = await Promise.all([hono.request(path), ours.request(path)]);
  return [a.headers, b.headers];
}

const entries = (headers: Headers) => [...headers];

describe('securityHeaders', () => {
  it.each<[string, Handler]>([
    ['c.json', (c) => c.json({ ok: true })],
    ['c.text with a status', (c) => c.text('no', 404)],
    ['a Response of its own', () => new Response('# hi', { headers: { 'Content-Type': 'text/markdown' } })],
    ['its own stricter headers', (c) => c.html('<p>', 200, { 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'same-origin' })],
    ['c.header before the body', (c) => {
      c.header('Strict-Transport-Security', 'max-age=1');
      return c.body(null, 204);
    }],
    ['X-Powered-By', (c) => c.text('x', 200, { 'X-Powered-By': 'something' })],
    ['thrown', () => {
      throw new Error('boom');
    }],
  ])('gives the headers hono\'s secureHeaders({ overwrite: false }) gives: %s', async (_, handler) => {
    const [hono, ours] = await bothAnswers('/x', handler);
    expect(entries(ours)).toEqual(entries(hono));
    expect(ours.get('X-Content-Type-Options')).toBe('nosniff');
    expect(ours.has('X-Powered-By')).toBe(false);
  });
});
