/** The largest request body the API reads, REST and MCP alike (a larger one is 413). */
export const MAX_BODY_BYTES = 256 * 1024;
/** Bulk imports carry whole documents, so they get a larger bound. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
