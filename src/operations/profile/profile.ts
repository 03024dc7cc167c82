import { BoundedMap } from '../../ground/bounded-map.ts';
import type { CoreContext } from '../../ground/context.ts';
import { ONBOARDING_PATH } from '../../ground/dashboard-paths.ts';
import { DomainError } from '../../ground/errors.ts';
import { assertScope } from '../../ground/scopes.ts';
import { missingProfileFields, SalesProfileInput, type SalesProfile } from '../../ground/schemas/profile.ts';
import { parseInput } from '../../ground/validation.ts';
import { readSalesProfile, writeSalesProfile } from '../../db/sales-profiles.ts';
import { startSiteReads, type SiteReadStart } from '../../sites/read/start.ts';

/** What GET and PUT /api/v1/profile answer: the profile and whether onboarding is finished. */
export interface ProfileView {
  profile: SalesProfile;
  complete: boolean;
  /** Dotted names of the fields still needed to finish onboarding. */
  missing: string[];
  updatedAt: string | null;
  /** PUT only: the site reads this save started (a finished profile's domains not read since it was finished). */
  siteReads?: SiteReadStart[];
}


const EMPTY_PROFILE: SalesProfile = parseInput(SalesProfileInput, {});

function view(profile: SalesProfile, updatedAt: string | null): ProfileView {
  const missing = missingProfileFields(profile);
  return { profile, complete: missing.length === 0, missing, updatedAt };
}

export async function getProfile(ctx: CoreContext): Promise<ProfileView> {
  assertScope(ctx, 'commands');
  const stored = await readSalesProfile(ctx.db, ctx.principal.organization.id);
  return stored ? view(stored.profile, stored.updatedAt) : view(EMPTY_PROFILE, null);
}

/** Replaces the organization's sales profile with a validated one. */
export async function putProfile(ctx: CoreContext, profile: SalesProfile): Promise<ProfileView> {
  assertScope(ctx, 'commands');
  const updatedAt = new Date().toISOString();
  const result = view(profile, updatedAt);
  const organizationId = ctx.principal.organization.id;
  const before = result.complete ? await readSalesProfile(ctx.db, organizationId) : null;
  await writeSalesProfile(ctx.db, organizationId, profile, result.complete, updatedAt);
  finishedProfiles.delete(organizationId);
  profileWrites++;
  if (!result.complete) return result;
  // Finishing the profile reads the organization's own site and its competitors'; a later save reads
  // the domains it adds.
  const known = before && missingProfileFields(before.profile).length === 0 ? new Set(profileDomains(before.profile)) : new Set<string>();
  const siteReads = await startSiteReads(ctx.env, ctx.db, organizationId, profileDomains(profile).filter((domain) => !known.has(domain)), ctx.origin);
  return { ...result, siteReads };
}

/** The domains a profile names: the organization's own, then its competitors'. */
function profileDomains(profile: SalesProfile): string[] {
  return [...(profile.domain ? [profile.domain] : []), ...profile.competitors];
}

/**
 * How long an isolate reuses an organization's finished sales profile for its commands (a D1 round
 * trip on every command otherwise). A profile written through this isolate is read again at once;
 * one written elsewhere reaches this isolate's commands within this time, as a revoked key does
 * (KEY_CACHE_TTL_MS). Unfinished profiles are never kept, so finishing onboarding lets commands run
 * at once everywhere.
 */
export const PROFILE_CACHE_TTL_MS = 5_000;
const MAX_CACHED_PROFILES = 10_000;
const finishedProfiles = new BoundedMap<string, SalesProfile>({ max: MAX_CACHED_PROFILES, ttlMs: PROFILE_CACHE_TTL_MS });
/** Profile writes through this isolate: a read that overlapped one is not kept (it may predate the write). */
let profileWrites = 0;

/** The finished sales profile (kept in the isolate for PROFILE_CACHE_TTL_MS); 428 `onboarding_required` until it is finished. */
export async function assertOnboarded(ctx: CoreContext): Promise<SalesProfile> {
  const organizationId = ctx.principal.organization.id;
  const now = Date.now();
  const cached = finishedProfiles.get(organizationId, now);
  if (cached) {
    assertScope(ctx, 'commands');
    return cached;
  }
  const writesBefore = profileWrites;
  const { profile, complete, missing } = await getProfile(ctx);
  if (complete && profileWrites === writesBefore) finishedProfiles.set(organizationId, profile, now);
  if (!complete) {
    throw new DomainError(
      'onboarding_required',
      `Finish your organization's sales profile first: on the dashboard at ${ONBOARDING_PATH}, or with PUT /api/v1/profile (over MCP: the set-profile tool). Missing: ${missing.join(', ')}.`,
    );
  }
  return profile;
}
