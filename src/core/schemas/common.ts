import { z } from 'zod';

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A bare, lower-cased domain name such as `acme.com` (no scheme, path or port). */
export const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(DOMAIN_PATTERN, 'must be a bare domain such as acme.com (no scheme, path or port)')
  .describe('A bare domain name, e.g. "acme.com".');

export const MAX_POLICY_DOMAINS = 25;

/** Include and exclude lists of domains for research (watches and the research command). */
export const SourcePolicy = z
  .strictObject({
    include: z
      .array(Domain)
      .max(MAX_POLICY_DOMAINS)
      .default([])
      .describe(`Only use sources from these domains (at most ${MAX_POLICY_DOMAINS}). Empty means any domain.`),
    exclude: z
      .array(Domain)
      .max(MAX_POLICY_DOMAINS)
      .default([])
      .describe(`Never use sources from these domains (at most ${MAX_POLICY_DOMAINS}).`),
  })
  .superRefine((policy, ctx) => {
    const included = new Set(policy.include);
    policy.exclude.forEach((domain, index) => {
      if (included.has(domain)) {
        ctx.addIssue({
          code: 'custom',
          path: ['exclude', index],
          message: `${domain} is in both include and exclude; keep it in one list`,
        });
      }
    });
  })
  .describe('Which source domains research may use.');

export const UserContext = z
  .string()
  .max(4000)
  .optional()
  .describe('Optional extra context for the command, in plain words (at most 4000 characters).');
