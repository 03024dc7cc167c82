/** Bodies up to this size are read to their end before a refusal is answered (see discardBody). */
export const DISCARD_UP_TO_BYTES = 32 * 1024 * 1024;

/**
 * Reads and drops a request body that is being refused unread (413 on its Content-Length), so a
 * client still sending it reads the answer instead of a connection reset: HTTP clients such as
 * fetch report a server that stops reading mid-upload as a network error, not as the 413. Only a
 * body that declares at most DISCARD_UP_TO_BYTES is read; a larger one is refused unread (reading it
 * would be the cost the limit is there to refuse).
 */
export async function discardBody(request: Request): Promise<void> {
  const declared = Number(request.headers.get('Content-Length'));
  if (!request.body || request.bodyUsed || request.body.locked || !(declared > 0) || declared > DISCARD_UP_TO_BYTES) return;
  try {
    await request.body.pipeTo(new WritableStream());
  } catch {
    // The client went away: there is no one left to answer.
  }
}
