/**
 * The one way the Worker reads a body that came from outside (a page, a sitemap, a feed, a webhook
 * receiver's answer): chunk by chunk, never past `maxBytes`. Past it, the rest is cancelled, never
 * read, so a body of any size costs at most `maxBytes` of memory and reading. A deadline (`signal`)
 * ends a read that stalls: a runtime may not stop a pending read by itself.
 */

/** How a read ended: the whole body, more than `maxBytes` (the rest not read), stopped by its reader, or a failure. */
export type ChunksRead = { ended: 'whole' | 'over' | 'stopped' } | { ended: 'failed'; error: unknown };

/**
 * Hands each chunk of `body` to `visit`, at most `maxBytes` in all: a chunk that passes the bound is
 * cut to it, handed, and the read ends `over`. `visit` may return `'stop'` to end the read there. A
 * stream that fails (or `signal` aborting) ends it `failed`; an exception of `visit` is thrown, after
 * the body is cancelled.
 */
export async function forEachChunk(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  visit: (chunk: Uint8Array) => 'stop' | void,
  signal?: AbortSignal,
): Promise<ChunksRead> {
  if (!body) return { ended: 'whole' };
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await (signal ? untilAborted(reader.read(), signal) : reader.read());
      } catch (error) {
        return { ended: 'failed', error };
      }
      if (next.done) return { ended: 'whole' };
      const room = maxBytes - read;
      if (next.value.byteLength > room) {
        if (room > 0) visit(next.value.subarray(0, room));
        return { ended: 'over' };
      }
      read += next.value.byteLength;
      if (visit(next.value) === 'stop') return { ended: 'stopped' };
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** A body read into memory: its first `maxBytes` bytes at most, whether there was more, and a failure part-way (`bytes`: what came before). */
export interface BodyRead {
  bytes: Uint8Array;
  over: boolean;
  error?: unknown;
}

/** Reads `body` into memory, at most `maxBytes` of it (see forEachChunk). Never throws: a failure comes back as `error`. */
export async function readBody(body: ReadableStream<Uint8Array> | null, maxBytes: number, signal?: AbortSignal): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  const read = await forEachChunk(body, maxBytes, (chunk) => void chunks.push(chunk), signal);
  return { bytes: joined(chunks), over: read.ended === 'over', ...(read.ended === 'failed' ? { error: read.error } : {}) };
}

/** The chunks as one array (the one chunk itself when there is one). */
export function joined(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** `promise`, or a rejection as soon as `signal` aborts (a runtime may not stop a pending read by itself). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
