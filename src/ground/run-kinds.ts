/**
 * The vocabulary of asynchronous runs, shared by every layer that names them: which commands run in
 * the background, and the states a run moves through: `running`, then `completed`, `failed` or
 * `cancelled` (the contract's decision: `X-Run-Status` always carries one of them).
 */

/** The asynchronous commands and site reads: each run is one RunObject Durable Object. */
export const RUN_KINDS = ['gtm-audit', 'audit', 'site-read'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** `running` until it ends; `completed`, `failed` and `cancelled` are final. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
