import { z } from 'zod';

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const HTTP_URL = /^https?:\/\//i;
// A host written alone, optionally followed by a path, query or fragment (no port, no user).
const BARE_HOST = /^([^\s/?#@:\\]+)(?:[/?#].*)?$/s;

/**
 * The one normalization of a domain, wherever one enters (the profile, source policies, command
 * arguments, company keys, sources' URLs): `acme.example`, `www.acme.example`, `ACME.example.`,
 * `https://acme.example/pricing` and `http://www.acme.example:8080` all give `acme.example`. The host
 * is lower-cased (internationalized names in their `xn--` form, as URLs hold them), loses a trailing
 * dot and a leading `www.` (unless that leaves no domain), and must then be a domain name with a
 * dot and a top-level domain of letters. Anything else (a name, an IP address, another scheme)
 * gives undefined.
 */
export function normalizeDomain(input: string): string | undefined {
  const value = input.trim();
  let host: string | undefined;
  if (HTTP_URL.test(value)) {
    host = URL.canParse(value) ? new URL(value).hostname : undefined;
  } else {
    const bare = BARE_HOST.exec(value)?.[1];
    host = bare && URL.canParse(`https://${bare}/`) ? new URL(`https://${bare}/`).hostname : undefined;
  }
  if (!host) return undefined;
  host = host.toLowerCase().replace(/\.$/, '');
  const withoutWww = host.replace(/^www\./, '');
  if (withoutWww !== host && DOMAIN_PATTERN.test(withoutWww)) host = withoutWww;
  return DOMAIN_PATTERN.test(host) ? host : undefined;
}

/**
 * A host name written alone (`docs.acme.example`, any case, a trailing dot), as normalizeDomain
 * reads one but keeping `www.` and every other label: lower-cased, internationalized names in their
 * `xn--` form, and then a domain name of the same shape. Anything else (a URL, a port, a path, a user,
 * an IP address) gives undefined.
 */
export function normalizeHost(input: string): string | undefined {
  const value = input.trim();
  if (/[\s/?#@:\\[\]]/.test(value) || !URL.canParse(`https://${value}/`)) return undefined;
  const host = new URL(`https://${value}/`).hostname.toLowerCase().replace(/\.$/, '');
  return DOMAIN_PATTERN.test(host) ? host : undefined;
}

/**
 * A domain, normalized by `normalizeDomain`: accepts a bare domain or an http(s) URL, in any case,
 * with a trailing dot or a leading `www.`, and outputs the bare lower-case domain (`acme.com`).
 */
const DOMAIN_RULE = 'must be a domain such as acme.com, or a URL such as https://acme.com';

export const Domain = z
  .string({ error: DOMAIN_RULE })
  .trim()
  .max(2048)
  .overwrite((value) => normalizeDomain(value) ?? value)
  .refine((value) => DOMAIN_PATTERN.test(value), DOMAIN_RULE)
  .describe('A domain such as "acme.com" (a URL such as "https://www.acme.com/" is accepted and reduced to its domain).');

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
          // A rule on the field, as every validation message is (validation.ts puts the path first).
          message: `must not also be in include: ${domain} is in both lists; keep it in one`,
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
