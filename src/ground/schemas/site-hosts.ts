import { normalizeHost } from './common.ts';
import { z } from './openapi.ts';

/**
 * The hosts of a site a read names besides the apex and `www.` (`hosts` of POST /api/v1/oms/sites
 * and the read-site tool): `docs.globex.com`, `blog.globex.com`. A site is its domain's web hosts;
 * the apex and `www.` are read anyway, and another host of the domain only when a read names it
 * (a company's docs, blog or help center), each with its own robots.txt and sitemaps, under the
 * same gate as the rest of the site (src/sites/read/). A host of another domain is another site.
 */

/** Hosts one read may name. */
export const MAX_NAMED_HOSTS = 10;

const NamedHost = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .transform((text, ctx) => {
    const host = normalizeHost(text);
    if (host === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be a host name such as "docs.globex.com" (no scheme, port, path or address); ${JSON.stringify(text.slice(0, 100))} is not` });
      return z.NEVER;
    }
    return host;
  });

/** The field, for the input schemas that take it (a read). */
export const SITE_HOSTS_FIELDS = {
  hosts: z
    .array(NamedHost)
    .max(MAX_NAMED_HOSTS)
    .default([])
    .describe(
      `Other hosts of the same domain to read as part of the site, e.g. ["docs.globex.com", "blog.globex.com"] (at most ${MAX_NAMED_HOSTS}); ` +
        'each has its own robots.txt and sitemaps, and links to it count as links of the site. The apex and www. are always read. Default: none.',
    ),
};

/** Refuses a named host that is not a host of `domain` (the apex and `www.` included: those are read anyway), or one named twice. */
export function refineSiteHosts(input: { domain?: unknown; hosts?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof input.domain !== 'string' || !Array.isArray(input.hosts)) return;
  const domain = input.domain;
  const seen = new Set<string>();
  input.hosts.forEach((host: string, index) => {
    if (host === domain || host === `www.${domain}`) {
      ctx.addIssue({ code: 'custom', path: ['hosts', index], message: `${host} is read anyway (a site is its apex and www.); name only its other hosts, such as docs.${domain}` });
    } else if (!host.endsWith(`.${domain}`)) {
      ctx.addIssue({ code: 'custom', path: ['hosts', index], message: `${host} is not a host of ${domain}; another domain is another site: read it on its own` });
    } else if (seen.has(host)) {
      ctx.addIssue({ code: 'custom', path: ['hosts', index], message: `${host} is named twice` });
    }
    seen.add(host);
  });
}
