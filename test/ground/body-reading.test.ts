import { describe, expect, it } from 'vitest';
import { forEachChunk, readBody } from '../../src/ground/body-reading.ts';

/** A body of `chunks`, then (optionally) a failure; `pulled` counts the chunks the reader asked for. */
function streamOf(chunks: string[], failAfter = false): { body: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let next = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(new TextEncoder().encode(chunks[next++]));
      else if (failAfter) controller.error(new Error('the connection broke'));
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { body, pulled: () => next, cancelled: () => cancelled };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('readBody', () => {
  it('reads a body within the bound whole', async () => {
    const read = await readBody(streamOf(['ab', 'cd']).body, 4);
    expect({ text: text(read.bytes), over: read.over, error: read.error }).toEqual({ text: 'abcd', over: false, error: undefined });
  });

  it('stops at the bound: the bytes up to it, `over`, the rest never asked for and the body cancelled', async () => {
    const source = streamOf(['abc', 'def', 'ghi', 'jkl']);
    const read = await readBody(source.body, 5);
    expect(text(read.bytes)).toBe('abcde');
    expect(read.over).toBe(true);
    expect(source.pulled()).toBe(2);
    expect(source.cancelled()).toBe(true);
  });

  it('gives what came before a failure, and the failure', async () => {
    const read = await readBody(streamOf(['ab'], true).body, 100);
    expect(text(read.bytes)).toBe('ab');
    expect(String(read.error)).toContain('the connection broke');
  });

  it('ends a read that stalls when its signal aborts', async () => {
    const stalled = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const controller = new AbortController();
    const reading = readBody(stalled, 100, controller.signal);
    controller.abort();
    expect(String((await reading).error)).toContain('aborted');
  });

  it('reads no body as empty', async () => {
    expect((await readBody(null, 10)).bytes.byteLength).toBe(0);
  });
});

describe('forEachChunk', () => {
  it('ends where its visitor says stop', async () => {
    const source = streamOf(['a', 'b', 'c']);
    const seen: string[] = [];
    const read = await forEachChunk(source.body, 100, (chunk) => (seen.push(text(chunk)), seen.length === 2 ? 'stop' : undefined));
    expect(read).toEqual({ ended: 'stopped' });
    expect(seen).toEqual(['a', 'b']);
  });
});
