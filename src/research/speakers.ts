import { COMPANIES_NAMED, type CompanyName } from '../db/companies.ts';
import { companyDirectory } from '../oms/company-directory.ts';
import type { ResearchSource } from './provider.ts';
import { askedNames, isOwnDomainOf } from './select.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * Who says what a brief quotes: the company the topic is about (its own pages), another vendor
 * (any company the organization knows, its own included), or a third party (reviews, news,
 * analysts, anyone else). Read from the organization's `company` objects, whose keys are domains.
 */

export interface Speakers {
  /** The companies the topic names, with the name to show (their domain when unnamed). */
  subjects: { domain: string; name: string }[];
  /** Domains of the cited sources that belong to known companies other than the subjects. */
  vendors: string[];
}

export type SpeakerKind = 'subject' | 'vendor' | 'third-party';

/** The domain and its parent domains of two labels or more: `blog.globex.com`, `globex.com`. */
function domainAndParents(domain: string): string[] {
  const labels = domain.toLowerCase().split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** The company domain `domain` belongs to among `domains`, if any (a subdomain belongs to its parent). */
function owner(domain: string, domains: readonly string[]): string | undefined {
  return domainAndParents(domain).find((d) => domains.includes(d));
}

/** Speakers, with the keys of the companies the topic names (a brief is linked `about` them). */
export interface TopicSpeakers extends Speakers {
  /** Keys of the companies the topic names, as `named` ranks them: most recently updated first. */
  named: string[];
}

/** `text` lower-cased as SQLite's lower() does it: ASCII letters only, like the company reads of the OMS. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * The cited domains that are the own site of a company the topic names but the organization has
 * no object for: a domain whose first label is the name's letters (`Kelvra` and kelvra.com, `Harvest
 * Lane` and harvestlane.com), or its first word's when that word is long enough to be a name
 * (`Acme Analytics` and acme.com). A company's own pages are its own, whether or not it is stored.
 */
function ownDomainsOfNames(topic: string, cited: ReadonlySet<string>, known: ReadonlyMap<string, string>): { domain: string; name: string }[] {
  const found: { domain: string; name: string }[] = [];
  for (const name of askedNames(topic).names) {
    for (const domain of cited) {
      if (known.has(domain) || domain.split('.').length !== 2 || found.some((f) => f.domain === domain)) continue;
      if (isOwnDomainOf(name, domain.split('.')[0]!)) found.push({ domain, name: name.text });
    }
  }
  return found;
}

/**
 * The companies `topic` names (their domain or name, at most COMPANIES_NAMED, newest first) among
 * `companies`, and who the cited sources speak for. The subjects are `given` (a watch's target,
 * whether or not the topic names it), the named companies, those the organization knows, with
 * their names, and the companies the topic names that it does not know whose own site is cited
 * (ownDomainsOfNames); vendors are the other cited domains (or their parents) that are known
 * companies or the organization's own (`ownDomain`, the sales profile's).
 */
export function speakersIn(
  companies: readonly CompanyName[],
  topic: string,
  sources: readonly ResearchSource[],
  options: { given?: readonly string[]; ownDomain?: string } = {},
): TopicSpeakers {
  const text = asciiLower(topic);
  const named: string[] = [];
  for (const company of companies) {
    if (named.length >= COMPANIES_NAMED) break;
    const name = company.name ? asciiLower(company.name) : '';
    if (text.includes(company.key) || (name !== '' && text.includes(name))) named.push(company.key);
  }
  const known = new Map(companies.map((company) => [company.key, company.name ?? company.key]));
  const cited = new Set(sources.flatMap((s) => domainAndParents(s.domain)));
  const about = [...new Set([...(options.given ?? []), ...named])];
  const subjects = [
    ...about.filter((key) => known.has(key)).map((key) => ({ domain: key, name: known.get(key)! })),
    ...ownDomainsOfNames(topic, cited, known).filter((inferred) => !about.includes(inferred.domain)),
  ];
  const candidates = [...[...cited].filter((domain) => known.has(domain)), ...(options.ownDomain ? [options.ownDomain] : [])];
  const vendors = [...new Set(candidates)].filter((key) => !subjects.some((subject) => subject.domain === key) && cited.has(key));
  return { subjects, vendors, named };
}

/** `speakersIn` over the organization's company directory (kept in the isolate: usually no D1 round trip). */
export async function topicSpeakers(
  db: Db,
  organizationId: string,
  topic: string,
  sources: readonly ResearchSource[],
  options: { given?: readonly string[]; ownDomain?: string } = {},
): Promise<TopicSpeakers> {
  return speakersIn(await companyDirectory(db, organizationId), topic, sources, options);
}

/** Who a source on `domain` speaks for: one of the subjects (its domain), another vendor, or a third party. */
export function speakerOf(domain: string, speakers: Speakers): { kind: SpeakerKind; subject?: string } {
  const subject = owner(
    domain,
    speakers.subjects.map((s) => s.domain),
  );
  if (subject) return { kind: 'subject', subject };
  if (owner(domain, speakers.vendors)) return { kind: 'vendor' };
  return { kind: 'third-party' };
}
