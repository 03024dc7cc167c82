import { z } from 'zod';
import { Domain } from './common.ts';

const Entries = (what: string, example: string) =>
  z
    .array(z.string().trim().min(1).max(200))
    .max(50)
    .default([])
    .describe(`${what} (at most 50 entries of 1-200 characters), e.g. ["${example}"].`);

/** The ideal customer profile: who the organization sells to. */
export const Icp = z.strictObject({
  industries: Entries('Industries you sell to', 'SaaS'),
  companySizes: Entries('Company sizes you sell to', '51-200'),
  regions: Entries('Regions you sell in', 'North America'),
  personas: Entries('Buyer personas', 'VP Sales'),
});

/** The sales profile as PUT /api/v1/profile takes it: the whole profile, replacing the old one. */
export const SalesProfileInput = z.strictObject({
  companyName: z.string().trim().min(1).max(200).optional().describe('Your company name, e.g. "Acme Analytics".'),
  domain: Domain.optional().describe("Your company's domain, e.g. \"acme.com\"."),
  offering: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .optional()
    .describe('What your organization sells, in a sentence or two (at most 2000 characters).'),
  icp: Icp.default({ industries: [], companySizes: [], regions: [], personas: [] }),
  competitors: z.array(Domain).max(25).default([]).describe('Domains of known competitors (optional, at most 25).'),
  valueProps: Entries('Your value propositions (optional)', 'Dashboards in minutes'),
});

export type SalesProfile = z.output<typeof SalesProfileInput>;

/** The fields onboarding still needs: companyName, domain, offering, one entry in each ICP list. */
export function missingProfileFields(profile: SalesProfile): string[] {
  const missing: string[] = [];
  if (!profile.companyName) missing.push('companyName');
  if (!profile.domain) missing.push('domain');
  if (!profile.offering) missing.push('offering');
  for (const list of ['industries', 'companySizes', 'regions', 'personas'] as const) {
    if (profile.icp[list].length === 0) missing.push(`icp.${list}`);
  }
  return missing;
}
