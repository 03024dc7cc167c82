/** Who the MCP server is, for every revision it serves (./server.ts). */
export const SERVER_INFO = { name: 'recon', title: 'Recon', version: '1.0.0' } as const;

export const INSTRUCTIONS =
  'Recon researches markets for go-to-market teams. Call help for the command catalog. research and ' +
  'competitors answer at once with cited markdown; gtm-audit and audit start background runs. Errors ' +
  'come back as tool results with a code (invalid_input, onboarding_required, rate_limited, ...) and a ' +
  'message that says how to fix the call.';

