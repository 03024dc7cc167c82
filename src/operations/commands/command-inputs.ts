import { z } from 'zod';
import { GTM_AUDIT_AREAS } from '../../runs/gtm-audit.ts';
import { Domain, SourcePolicy, UserContext } from '../../ground/schemas/common.ts';

export const ResearchTier = z
  .enum(['lite', 'base'])
  .describe('Research depth: "lite" (fewer sources, cheaper) or "base" (more sources and findings).');

export const ResearchInput = z.strictObject({
  topic: z.string().trim().min(1).max(500).describe('What to research, 1-500 characters, e.g. "Acme Analytics pricing".'),
  tier: ResearchTier.default('lite'),
  sourcePolicy: SourcePolicy.optional(),
  userContext: UserContext,
});

export const CompetitorsInput = z.strictObject({
  company: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .optional()
    .describe("The company to analyse, as a domain or a name (default: your organization's own)."),
  limit: z.int().min(1).max(25).default(10).describe('How many competitors to return, 1-25 (default 10).'),
  userContext: UserContext,
});


export const GtmAuditInput = z.strictObject({
  company: Domain.optional().describe("Domain of the company to audit (default: your organization's own)."),
  focus: z
    .array(z.enum(GTM_AUDIT_AREAS))
    .min(1)
    .max(GTM_AUDIT_AREAS.length)
    .refine((areas) => new Set(areas).size === areas.length, 'must not repeat an area')
    .optional()
    .describe(`Areas to audit (default: all of ${GTM_AUDIT_AREAS.join(', ')}).`),
  userContext: UserContext,
});

export const AuditInput = z.strictObject({
  userContext: UserContext,
});

export const HelpInput = z.strictObject({
  userContext: UserContext.describe('Accepted for symmetry with the other commands; ignored.'),
});

export type ResearchInput = z.output<typeof ResearchInput>;
export type CompetitorsInput = z.output<typeof CompetitorsInput>;
export type GtmAuditInput = z.output<typeof GtmAuditInput>;
export type AuditInput = z.output<typeof AuditInput>;
export type HelpInput = z.output<typeof HelpInput>;
