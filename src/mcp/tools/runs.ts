import { z } from 'zod';
import { getRun } from '../../operations/runs.ts';
import { parseInput } from '../../ground/validation.ts';
import { RUN_KINDS } from '../../runs/types.ts';
import { reportRun } from '../run-progress.ts';
import type { ToolDefinition } from './registry.ts';

export const RunStatusInput = z.strictObject({
  kind: z.enum(RUN_KINDS).describe('The run\'s command: "gtm-audit" or "audit".'),
  id: z.string().trim().min(1).max(100).describe('The run id that gtm-audit or audit returned (64 hex characters).'),
});

export const RunStatusOutput = z.object({
  runId: z.string(),
  kind: z.enum(RUN_KINDS),
  status: z.enum(['running', 'completed', 'failed', 'cancelled']),
  retryAfterSeconds: z.number().optional().describe('While running: when to poll again.'),
});

/** run-status: the poll of GET /api/v1/runs/{kind}/{id}, with the same markdown. */
export const runTools: ToolDefinition[] = [
  {
    name: 'run-status',
    title: 'Run status',
    description:
      'Polls a gtm-audit or audit run by id. While it runs, returns one status line (which step) and when to poll again; once finished, returns the full markdown report. The status is also in structuredContent, and, once a level is chosen with logging/setLevel, sent as a log message (logger recon.runs).',
    input: RunStatusInput,
    output: RunStatusOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: 'commands',
    bucket: 'reads',
    notifies: true,
    async call(ctx, args, { logLevel, sendNotification }) {
      const { kind, id } = parseInput(RunStatusInput, args, 'arguments of run-status');
      const view = await getRun(ctx, kind, id);
      await reportRun(view, logLevel, sendNotification);
      return {
        content: [{ type: 'text', text: view.markdown }],
        structuredContent: {
          runId: view.id,
          kind: view.kind,
          status: view.status,
          ...(view.retryAfter ? { retryAfterSeconds: view.retryAfter } : {}),
        },
      };
    },
  },
];
