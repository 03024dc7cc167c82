import { z } from 'zod';
import { getProfile, putProfile, type ProfileView } from '../../operations/profile.ts';
import { SalesProfileInput } from '../../ground/schemas/profile.ts';
import { parseInput } from '../../ground/validation.ts';
import type { ToolDefinition } from './registry.ts';

const GetProfileInput = z.strictObject({});

/** A profile answer: the REST JSON body as text (byte for byte), and the same object as structured content. */
function profileResult(view: ProfileView) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(view) }], structuredContent: { ...view } };
}

/** get-profile and set-profile: GET and PUT /api/v1/profile, over the same core and zod schema. */
export const profileTools: ToolDefinition[] = [
  {
    name: 'get-profile',
    title: 'Get sales profile',
    description:
      "Reads your organization's sales profile (company, domain, offering, ICP, competitors, value props) and whether onboarding is finished: " +
      '`complete`, and `missing` lists the fields still needed. Every command but help needs a complete profile; finish it with set-profile.',
    input: GetProfileInput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: 'commands',
    bucket: 'reads',
    async call(ctx, args) {
      parseInput(GetProfileInput, args, 'arguments of get-profile');
      return profileResult(await getProfile(ctx));
    },
  },
  {
    name: 'set-profile',
    title: 'Set sales profile',
    description:
      "Replaces your organization's whole sales profile (send every field you want kept; call get-profile first to see it). " +
      'Onboarding is finished once companyName, domain, offering and at least one entry in each icp list are set; the answer says ' +
      'what is still `missing`. Example: {"companyName": "Globex", "domain": "globex.com", "offering": "Supply-chain software", ' +
      '"icp": {"industries": ["Manufacturing"], "companySizes": ["201-1000"], "regions": ["Europe"], "personas": ["COO"]}}.',
    input: SalesProfileInput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    scope: 'commands',
    bucket: 'reads',
    async call(ctx, args) {
      return profileResult(await putProfile(ctx, args));
    },
  },
];
