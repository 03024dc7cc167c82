import type { CoreContext } from '../ground/context.ts';
import { ONBOARDING_PATH } from '../ground/dashboard-paths.ts';
import { DomainError } from '../ground/errors.ts';
import { assertScope } from '../ground/scopes.ts';
import { missingProfileFields, SalesProfileInput, type SalesProfile } from '../ground/schemas/profile.ts';
import { parseInput } from '../ground/validation.ts';
import { readSalesProfile, writeSalesProfile } from '../db/sales-profiles.ts';

/** What GET and PUT /api/v1/profile answer: the profile and whether onboarding is finished. */
export interface ProfileView {
  profile: SalesProfile;
  complete: boolean;
  /** Dotted names of the fields still needed to finish onboarding. */
  missing: string[];
  updatedAt: string | null;
}


const EMPTY_PROFILE: SalesProfile = parseInput(SalesProfileInput, {});

function view(profile: SalesProfile, updatedAt: string | null): ProfileView {
  const missing = missingProfileFields(profile);
  return { profile, complete: missing.length === 0, missing, updatedAt };
}

export async function getProfile(ctx: CoreContext): Promise<ProfileView> {
  assertScope(ctx, 'commands');
  const stored = await readSalesProfile(ctx.env.DB, ctx.principal.organization.id);
  return stored ? view(stored.profile, stored.updatedAt) : view(EMPTY_PROFILE, null);
}

/** Replaces the organization's sales profile with `raw` once it validates. */
export async function putProfile(ctx: CoreContext, raw: unknown): Promise<ProfileView> {
  assertScope(ctx, 'commands');
  const profile = parseInput(SalesProfileInput, raw);
  const updatedAt = new Date().toISOString();
  const result = view(profile, updatedAt);
  await writeSalesProfile(ctx.env.DB, ctx.principal.organization.id, profile, result.complete, updatedAt);
  return result;
}

/** Throws 428 `onboarding_required` until the organization's sales profile is finished. */
export async function assertOnboarded(ctx: CoreContext): Promise<SalesProfile> {
  const { profile, complete, missing } = await getProfile(ctx);
  if (!complete) {
    throw new DomainError(
      'onboarding_required',
      `Finish your organization's sales profile first: on the dashboard at ${ONBOARDING_PATH}, or with PUT /api/v1/profile (over MCP: the set-profile tool). Missing: ${missing.join(', ')}.`,
    );
  }
  return profile;
}
