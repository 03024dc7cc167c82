import { listCompanies, type CompanyName } from '../db/companies.ts';
import { BoundedMap } from '../ground/bounded-map.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * The organization's companies as research reads them to tell who says what and which companies a
 * topic names: the COMPANIES_READ most recently updated (`listCompanies`), kept in the isolate for
 * DIRECTORY_TTL_MS so a research call does not spend a D1 round trip on them. A company written
 * or deleted through this isolate is seen at once (writeObjects and deleteObject forget the
 * organization's directory); one written elsewhere within DIRECTORY_TTL_MS.
 */
export const DIRECTORY_TTL_MS = 5_000;
/** At most this many companies, over all organizations, are kept in an isolate; the oldest directories go first. */
const MAX_CACHED_COMPANIES = 20_000;

const directories = new BoundedMap<string, readonly CompanyName[]>({
  max: MAX_CACHED_COMPANIES,
  weigh: (companies) => companies.length,
  ttlMs: DIRECTORY_TTL_MS,
});
/** Company writes through this isolate: a read that overlapped one is not kept. */
let companyWrites = 0;

/** The organization's most recently updated companies (at most COMPANIES_READ), newest first. */
export async function companyDirectory(db: Db, organizationId: string, now = Date.now()): Promise<readonly CompanyName[]> {
  const cached = directories.get(organizationId, now);
  if (cached) return cached;
  const writesBefore = companyWrites;
  const companies = await listCompanies(db, organizationId);
  if (companyWrites === writesBefore) directories.set(organizationId, companies, now);
  return companies;
}

/** Called on every write or delete of a company through this isolate. */
export function forgetCompanyDirectory(organizationId: string): void {
  companyWrites++;
  directories.delete(organizationId);
}
