import { describe, expect, it } from 'vitest';
import { discardBody, DISCARD_UP_TO_BYTES } from '../../src/middleware/discard-body.ts';

function upload(bytes: number, declared = bytes): Request {
  return new Request('https://recon.test/api/v1/oms/objects/import', {
    method: 'POST',
    headers: { 'Content-Length': String(declared) },
    body: new Uint8Array(bytes),
  });
}

describe('discardBody, before a 413 on Content-Length', () => {
  it('reads a refused body to its end when it declares at most the bound, so the client reads the answer', async () => {
    const request = upload(11 * 1024 * 1024);
    await discardBody(request);
    expect(request.bodyUsed).toBe(true);
  });

  it('leaves a body that declares more than the bound unread', async () => {
    const request = upload(1024, DISCARD_UP_TO_BYTES + 1);
    await discardBody(request);
    expect(request.bodyUsed).toBe(false);
  });
});
