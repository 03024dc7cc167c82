import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '../../src/oms/import.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { importBody, ndjson, rowsOf } from './import-helpers.ts';

const GOOD = { type: 'company', key: 'good.com', properties: { name: 'Good' } };

async function storedKeys(organizationId: string): Promise<string[]> {
  const rows = await env.DB.prepare('SELECT key FROM objects WHERE organization_id = ? ORDER BY key').bind(organizationId).all<{ key: string }>();
  return rows.results.map((r) => r.key);
}

describe('import limits', () => {
  it('fails a line over 1 MiB with its size, writes nothing of it, and applies the other lines', async () => {
    const org = await createOrganization();
    // 200,000 characters of three-byte text: within the content limit, over a line's 1 MiB in UTF-8 once escaped.
    const big = { type: 'source', key: 'https://acme.com/big', properties: { title: 'Big', content: '\u0001'.repeat(199_990) + ' Big.' } };
    const response = await importBody(org.key, ndjson(GOOD, big));
    expect(response.status).toBe(200);
    const result = await response.json<{ imported: number; failed: number; errors: { line: number; error: string; message: string }[] }>();
    expect(result).toMatchObject({ imported: 1, failed: 1 });
    expect(result.errors).toEqual([
      { line: 2, error: 'invalid_input', message: expect.stringMatching(/^line is 1,200,\d{3} bytes; a line may be at most 1,048,576 bytes \(1 MiB\)/) },
    ]);
    expect(await storedKeys(org.id)).toEqual(['good.com']);
    expect(await rowsOf(org.id)).toMatchObject({ passages: 0 });
  });

  it('accepts a source of 200,000 characters of three-byte text (600 KB), under the line limit', async () => {
    const org = await createOrganization();
    const content = 'アクメは毎週新しいダッシュボードを出荷します。 '.repeat(8_000).slice(0, 200_000);
    const source = { type: 'source', key: 'https://acme.co.jp/notes', properties: { title: 'ノート', content } };
    const result = await (await importBody(org.key, ndjson(source))).json();
    expect(result).toMatchObject({ imported: 1, failed: 0 });
  });

  it('fails an extra property over 64 KiB and an object with more than 100 properties, writing nothing of either', async () => {
    const org = await createOrganization();
    const logo = { type: 'company', key: 'acme.com', properties: { name: 'Acme', logoBase64: 'A'.repeat(64 * 1024) } };
    const many = { type: 'person', key: 'ann@acme.com', properties: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`field${i}`, i])) };
    const fits = { type: 'company', key: 'globex.com', properties: { name: 'Globex', notes: 'n'.repeat(60 * 1024) } };
    const response = await importBody(org.key, ndjson(logo, many, fits));
    const result = await response.json<{ imported: number; failed: number; errors: { line: number; message: string }[] }>();
    expect(result).toMatchObject({ imported: 1, failed: 2 });
    expect(result.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(result.errors[0]!.message).toBe('properties.logoBase64: 65,548 bytes as JSON; an extra property may be at most 65,536 bytes (64 KiB)');
    expect(result.errors[1]!.message).toBe('properties: 101 properties; an object may have at most 100 per line');
    expect(await storedKeys(org.id)).toEqual(['globex.com']);
  });

  it(`refuses more than ${IMPORT_LIMITS.lines} lines with 413 before writing anything`, async () => {
    const org = await createOrganization();
    const lines = Array.from({ length: IMPORT_LIMITS.lines + 1 }, (_, i) => ({ type: 'company', key: `c${i}.com` }));
    const response = await importBody(org.key, ndjson(...lines));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'payload_too_large',
      message: 'The import has 10,001 lines; send at most 10,000 per request and the rest in further requests. Nothing was written.',
      requestId: expect.any(String),
    });
    expect(await rowsOf(org.id)).toEqual({ objects: 0, links: 0, passages: 0, history: 0, provenance: 0 });
  });

  it('accepts exactly the line limit, blank lines not counted', async () => {
    const org = await createOrganization();
    const lines = Array.from({ length: IMPORT_LIMITS.lines }, (_, i) => ({ type: 'company', key: `c${i}.com` }));
    const response = await importBody(org.key, `${ndjson(...lines)}\n\n  \n`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ imported: IMPORT_LIMITS.lines, failed: 0 });
  });
});

describe('the 10 MiB import body', () => {
  const overLimit = () => {
    const line = `${JSON.stringify({ type: 'source', key: 'https://acme.com/a', properties: { title: 'A', content: 'Acme ships. '.repeat(40_000) } })}\n`;
    return new TextEncoder().encode(line.repeat(Math.ceil((10 * 1024 * 1024 + 1) / line.length)));
  };

  it('is refused with 413 when declared by Content-Length, writing nothing', async () => {
    const org = await createOrganization();
    const response = await importBody(org.key, overLimit());
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large', message: 'Request body exceeds 10 MiB; send less, or split it.' });
    expect(await rowsOf(org.id)).toEqual({ objects: 0, links: 0, passages: 0, history: 0, provenance: 0 });
  });

  it('is refused with 413 when streamed without Content-Length, writing nothing', async () => {
    const org = await createOrganization();
    const bytes = overLimit();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
        controller.close();
      },
    });
    // A stream of unknown length goes without Content-Length, so only counting the bytes can stop it.
    expect(new Request('https://recon.test', { method: 'POST', body: new ReadableStream() }).headers.has('Content-Length')).toBe(false);
    const response = await importBody(org.key, body);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large', message: 'Request body exceeds 10 MiB; send less, or split it.' });
    expect(await rowsOf(org.id)).toEqual({ objects: 0, links: 0, passages: 0, history: 0, provenance: 0 });
  });
});
