import { listCompanies, type CompanyName } from '../db/companies.ts';

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

interface Directory {
  companies: readonly CompanyName[];
  readAt: number;
}

const directories = new Map<string, Directory>();
let cachedCompanies = 0;
/** Company writes through this isolate: a read that overlapped one is not kept. */
let companyWrites = 0;

function drop(organizationId: string): void {
  const directory = directories.get(organizationId);
  if (!directory) return;
  cachedCompanies -= directory.companies.length;
  directories.delete(organizationId);
}

function keep(organizationId: string, companies: readonly CompanyName[], readAt: number): void {
  drop(organizationId);
  if (companies.length > MAX_CACHED_COMPANIES) return;
  while (cachedCompanies + companies.length > MAX_CACHED_COMPANIES) drop(directories.keys().next().value!);
  directories.set(organizationId, { companies, readAt });
  cachedCompanies += companies.length;
}

/** The organization's most recently updated companies (at most COMPANIES_READ), newest first. */
export async function companyDirectory(db: D1Database, organizationId: string, now = Date.now()): Promise<readonly CompanyName[]> {
  const cached = directories.get(organizationId);
  if (cached && now - cached.readAt < DIRECTORY_TTL_MS) return cached.companies;
  const writesBefore = companyWrites;
  const companies = await listCompanies(db, organizationId);
  if (companyWrites === writesBefore) keep(organizationId, companies, now);
  return companies;
}

/** Called on every write or delete of a company through this isolate. */
export function forgetCompanyDirectory(organizationId: string): void {
  companyWrites++;
  drop(organizationId);
}
