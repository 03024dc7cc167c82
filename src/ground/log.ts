/** Structured logs: one JSON object per event on stdout (Workers Logs indexes the fields). */
export function logEvent(event: string, fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ event, ...fields }));
}

/** Logs an error nobody anticipated, in full, with the request id that the caller was given. */
export function logUnexpectedError(error: unknown, requestId: string | undefined): void {
  console.error(
    JSON.stringify({
      event: 'unexpected_error',
      requestId,
      // Its message and its stack (errors.ts's messageOf would be an import cycle: errors.ts logs through here).
      ...(error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) }),
    }),
  );
}
