import { z } from '../../ground/schemas/openapi.ts';
import { SalesProfileInput } from '../../ground/schemas/profile.ts';
import { defineOperation } from '../definition.ts';
import { getProfile, putProfile } from './profile.ts';

const ProfileView = z
  .object({
    profile: SalesProfileInput,
    complete: z.boolean().describe('True once onboarding is finished and commands run.'),
    missing: z.array(z.string()).describe('Fields still needed to finish onboarding, e.g. "icp.regions".'),
    updatedAt: z.string().nullable(),
    siteReads: z
      .array(
        z.object({
          domain: z.string(),
          runId: z.string().nullable().describe('The site-read run (poll GET /api/v1/runs/site-read/{runId}), or null when none could start.'),
          refused: z.string().optional().describe('Why no read started (the day\'s page limit, too many reads running).'),
        }),
      )
      .optional()
      .describe('PUT only, once the profile is finished: the site reads this save started, of the organization\'s own domain and its competitors\' (those not read since the profile was finished).'),
  })
  .openapi('ProfileView');

/**
 * PUT /api/v1/profile and set-profile: the one core that replaces a sales profile, also what saves the
 * answers of an onboarding form asked in an MCP client (src/mcp/questions.ts).
 */
export const PUT_PROFILE = defineOperation({
  id: 'set-profile',
  scope: 'commands',
  bucket: 'reads',
  input: SalesProfileInput,
  inputName: 'request body',
  output: ProfileView,
  errors: ['invalid_input', 'payload_too_large'],
  effects: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: putProfile,
  rest: {
    method: 'put',
    path: '/profile',
    operationId: 'putProfile',
    summary: 'Replace the sales profile',
    description:
      'Takes the whole profile and replaces the stored one. Commands run once companyName, domain, offering and every icp list are set; the answer lists what is still missing.',
    input: {
      from: 'body',
      name: 'SalesProfile',
      required: true,
      example: {
        companyName: 'Acme Analytics',
        domain: 'acme.com',
        offering: 'Product analytics for B2B SaaS teams',
        icp: { industries: ['SaaS'], companySizes: ['51-200'], regions: ['North America'], personas: ['VP Product'] },
      },
    },
    answer: { kind: 'json', status: 200, description: 'The stored profile' },
  },
  mcp: {
    title: 'Set sales profile',
    description:
      "Replaces your organization's whole sales profile (send every field you want kept; call get-profile first to see it). " +
      'Onboarding is finished once companyName, domain, offering and at least one entry in each icp list are set; the answer says ' +
      'what is still `missing`. Example: {"companyName": "Globex", "domain": "globex.com", "offering": "Supply-chain software", ' +
      '"icp": {"industries": ["Manufacturing"], "companySizes": ["201-1000"], "regions": ["Europe"], "personas": ["COO"]}}.',
  },
});

/** The sales profile: GET and PUT /api/v1/profile, get-profile and set-profile (scope commands). */
export const PROFILE_OPERATIONS = [
  defineOperation({
    id: 'get-profile',
    scope: 'commands',
    bucket: 'reads',
    input: z.strictObject({}),
    output: ProfileView,
    errors: [],
    effects: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (ctx) => getProfile(ctx),
    rest: {
      method: 'get',
      path: '/profile',
      operationId: 'getProfile',
      summary: "The organization's sales profile and whether onboarding is finished",
      input: { from: 'none' },
      answer: { kind: 'json', status: 200, description: 'The profile' },
    },
    mcp: {
      title: 'Get sales profile',
      description:
        "Reads your organization's sales profile (company, domain, offering, ICP, competitors, value props) and whether onboarding is finished: " +
        '`complete`, and `missing` lists the fields still needed. Every command but help needs a complete profile; finish it with set-profile.',
    },
  }),
  PUT_PROFILE,
];
