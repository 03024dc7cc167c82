import { z } from 'zod';
import type { CoreContext } from '../../ground/context.ts';
import { Domain } from '../../ground/schemas/common.ts';
import { PATH_SCOPE_FIELDS, refineDisjointPaths } from '../../ground/schemas/path-scope.ts';
import { refineSiteHosts, SITE_HOSTS_FIELDS } from '../../ground/schemas/site-hosts.ts';
import { checkSourceUrl } from '../../oms/source-url-policy.ts';
import { DEFAULT_PAGE_BUDGET, MAX_PAGE_BUDGET } from '../../sites/frontier.ts';
import { readSiteReadPages, writeSiteReadPages } from '../../db/organizations.ts';
import { pagesFetchedOn } from '../../db/site-pages.ts';
import { readConfig } from '../../ground/config.ts';
import { startSiteRead } from '../../sites/read/start.ts';
import { today } from '../../sites/read/state.ts';
import type { CommandResult } from '../definition.ts';
import { howToPoll, startedMarkdown } from '../runs/runs.ts';

/**
 * POST /api/v1/oms/sites and the MCP tool read-site (scope oms:write): starts a site read of a
 * domain (src/sites/read/), or answers the read of it already running.
 */

export const ReadSiteInput = z.strictObject({
  domain: Domain.superRefine((domain, ctx) => {
    // The one domain normalizer refuses IP literals and names without a public TLD; the URL policy
    // of sources refuses the rest that is not public (e.g. .internal, .local, .localhost).
    const check = checkSourceUrl(`https://${domain}/`, { allowLocalHttp: false });
    if (!check.ok) ctx.addIssue({ code: 'custom', message: `must be a public domain; ${domain} is not: its URL ${check.message}` });
  }).describe('The site to read, e.g. "globex.com" (a URL such as "https://www.globex.com/pricing" is reduced to its domain; www. is the same site).'),
  pages: z
    .int()
    .min(1)
    .max(MAX_PAGE_BUDGET)
    .optional()
    .describe(`The most pages this read requests, 1 to ${MAX_PAGE_BUDGET} (default: the organization's setting, PUT /api/v1/oms/sites/settings, else ${DEFAULT_PAGE_BUDGET}).`),
  ...PATH_SCOPE_FIELDS,
  ...SITE_HOSTS_FIELDS,
})
  .superRefine(refineDisjointPaths)
  .superRefine(refineSiteHosts);
export type ReadSiteInput = z.output<typeof ReadSiteInput>;

/** Whether the request names paths to read or leave out, or other hosts to read. */
function scoped(input: ReadSiteInput): boolean {
  return input.includePaths.length > 0 || input.excludePaths.length > 0 || input.hosts.length > 0;
}

export async function readSite(ctx: CoreContext, input: ReadSiteInput): Promise<CommandResult> {
  const { id, started } = await startSiteRead(ctx.env, ctx.db, ctx.principal.organization.id, input.domain, input.pages, ctx.origin, { includePaths: input.includePaths, excludePaths: input.excludePaths, hosts: input.hosts });
  const markdown = started
    ? startedMarkdown('site-read', id)
    : `A site read of ${input.domain} is already running (run ${id}); one read per domain runs at a time${scoped(input) ? ', and it reads the paths and hosts it was started with, not these' : ''}. ${howToPoll('site-read', id)}`;
  return { mode: 'async', run: { id, kind: 'site-read', status: 'running' }, markdown };
}

/** The organization's site-read settings, as GET and PUT /api/v1/oms/sites/settings answer them. */
export interface SiteReadSettingsView {
  /** Pages a read requests when its request names none (reads on onboarding and before watches too). */
  pagesPerRead: number;
  /** Whether pagesPerRead is the default (no setting stored). */
  pagesPerReadIsDefault: boolean;
  /** The deployment's limit of pages fetched per organization per UTC day (SITE_READ_PAGES_PER_DAY). */
  pagesPerDay: number;
  /** Pages the organization's reads fetched today (UTC); a 304 is not counted. */
  pagesFetchedToday: number;
}

export const SiteReadSettingsInput = z.strictObject({
  pagesPerRead: z
    .int()
    .min(1)
    .max(MAX_PAGE_BUDGET)
    .nullable()
    .describe(`Pages a site read requests when its request names none, 1 to ${MAX_PAGE_BUDGET}; null for the default (${DEFAULT_PAGE_BUDGET}).`),
});
export type SiteReadSettingsInput = z.output<typeof SiteReadSettingsInput>;

export async function getSiteReadSettings(ctx: CoreContext): Promise<SiteReadSettingsView> {
  const organizationId = ctx.principal.organization.id;
  const [stored, fetched] = await Promise.all([readSiteReadPages(ctx.db, organizationId), pagesFetchedOn(ctx.db, organizationId, today())]);
  return {
    pagesPerRead: stored ?? DEFAULT_PAGE_BUDGET,
    pagesPerReadIsDefault: stored === null,
    pagesPerDay: readConfig(ctx.env).SITE_READ_PAGES_PER_DAY,
    pagesFetchedToday: fetched,
  };
}

export async function putSiteReadSettings(ctx: CoreContext, input: SiteReadSettingsInput): Promise<SiteReadSettingsView> {
  await writeSiteReadPages(ctx.db, ctx.principal.organization.id, input.pagesPerRead);
  return getSiteReadSettings(ctx);
}
