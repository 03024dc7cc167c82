import type { ResearchSource } from './provider.ts';

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

/**
 * Classifies the cited sources' domains in one bounded read: the subject companies (`named`, the
 * keys of the companies the topic names, as `companiesNamedIn` finds them) with their names, and
 * which other cited domains are companies the organization knows or its own (`ownDomain`, the
 * sales profile's), at most one statement over the cited domains and the named companies.
 */
export async function speakersOf(
  db: D1Database,
  organizationId: string,
  named: readonly string[],
  sources: readonly ResearchSource[],
  ownDomain?: string,
): Promise<Speakers> {
  const cited = [...new Set(sources.flatMap((s) => domainAndParents(s.domain)))];
  const keys = [...new Set([...named, ...cited])];
  if (keys.length === 0) return { subjects: [], vendors: [] };
  // Bounded: `named` holds at most COMPANIES_NAMED keys, `cited` the domains of one brief's sources.
  const { results } = await db
    .prepare(
      `SELECT key, json_extract(properties, '$.name') AS name FROM objects
        WHERE organization_id = ?1 AND type = 'company' AND key IN (SELECT value FROM json_each(?2))`,
    )
    .bind(organizationId, JSON.stringify(keys))
    .all<{ key: string; name: string | null }>();
  const known = new Map(results.map((row) => [row.key, row.name ?? row.key]));
  const subjects = named.filter((key) => known.has(key)).map((key) => ({ domain: key, name: known.get(key)! }));
  const vendors = [...new Set([...known.keys(), ...(ownDomain ? [ownDomain] : [])])].filter((key) => !named.includes(key) && cited.includes(key));
  return { subjects, vendors };
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
