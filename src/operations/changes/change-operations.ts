import { defineOperation, type Effects } from '../definition.ts';
import { ChangesInput, ChangesPage, listChanges, type ChangeEntry } from './changes.ts';
import { changeLine } from '../../watches/findings.ts';

const READ: Effects = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** One change as a line: when, which company, what kind, then the change as a brief lists it. */
function entryLine(entry: ChangeEntry): string {
  return `${entry.detectedAt.slice(0, 16).replace('T', ' ')} ${entry.company} [${entry.kind}] ${changeLine(entry).slice(2)}`;
}

/** The changes feed: GET /api/v1/oms/changes and the `changes` tool. */
export const CHANGE_OPERATIONS = [
  defineOperation({
    id: 'changes',
    scope: 'oms:read',
    bucket: 'reads',
    input: ChangesInput,
    output: ChangesPage,
    errors: ['invalid_input'],
    effects: READ,
    freshness: 'recent',
    run: (ctx, input) => listChanges(ctx, input),
    rest: {
      method: 'get',
      path: '/oms/changes',
      operationId: 'listChanges',
      summary: "What the organization's watched companies changed, across all watches, newest first",
      description:
        'Every change a watch execution found on a company\'s web (prices, sentences added and removed, pages new and gone, roles opened and closed, new feed entries), each cited. ' +
        'Filter by company, kind (one, or several separated by commas) and time (since, until); paged by cursor.',
      input: { from: 'query' },
      answer: { kind: 'json', status: 200, description: 'A page of changes' },
    },
    mcp: {
      answersOutput: true,
      title: 'Changes on watched companies',
      description:
        "What your watched companies changed on their web, across all watches, newest first: prices (before and after), sentences added and removed, pages new and gone, roles opened and closed, new feed entries, each with its URL. " +
        'Filter by company (domain), kind ("pricing", or several: "pricing,hiring"), since and until (ISO times). Paged: pass nextCursor back as cursor.',
      answer: (page) => ({
        text: `${[
          page.changes.length ? `${page.changes.length} change(s), newest first:` : 'No changes found.',
          ...page.changes.map((entry) => `- ${entryLine(entry)}`),
          ...(page.nextCursor ? [`More: call changes again with cursor "${page.nextCursor}".`] : []),
        ].join('\n')}\n`,
        structured: { ...page },
      }),
    },
  }),
];
