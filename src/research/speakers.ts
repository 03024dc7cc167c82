import { COMPANIES_NAMED, COMPANIES_READ } from '../db/companies.ts';
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

/** Speakers, with the keys of the companies the topic names (a brief is linked `about` them). */
export interface TopicSpeakers extends Speakers {
  /** Keys of the companies the topic names, as `named` ranks them: most recently updated first. */
  named: string[];
}

/**
 * In one statement (one D1 round trip): the companies `topic` names (their domain or name, among
 * the COMPANIES_READ most recently updated, at most COMPANIES_NAMED), and the companies among the
 * cited sources' domains and their parents. The subjects are `given` (a watch's target, whether
 * or not the topic names it) and the named companies, those the organization knows, with their
 * names; vendors are the other cited domains that are known companies or its own (`ownDomain`,
 * the sales profile's).
 */
export async function topicSpeakers(
  db: D1Database,
  organizationId: string,
  topic: string,
  sources: readonly ResearchSource[],
  options: { given?: readonly string[]; ownDomain?: string } = {},
): Promise<TopicSpeakers> {
  const cited = [...new Set(sources.flatMap((s) => domainAndParents(s.domain)))];
  const given = options.given ?? [];
  // Bounded: COMPANIES_NAMED named rows, plus one per given key and cited domain (one brief's sources).
  const { results } = await db
    .prepare(
      `WITH named AS MATERIALIZED (
         SELECT key, properties FROM (SELECT key, properties FROM objects
                                       WHERE organization_id = ?1 AND type = 'company' ORDER BY updated_at DESC LIMIT ?3)
          WHERE instr(lower(?2), key) > 0 OR instr(lower(?2), lower(json_extract(properties, '$.name'))) > 0
          LIMIT ?4)
       SELECT key, json_extract(properties, '$.name') AS name, 1 AS isNamed FROM named
       UNION ALL
       SELECT key, json_extract(properties, '$.name'), 0 FROM objects
        WHERE organization_id = ?1 AND type = 'company' AND key IN (SELECT value FROM json_each(?5))
          AND key NOT IN (SELECT key FROM named)`,
    )
    .bind(organizationId, topic, COMPANIES_READ, COMPANIES_NAMED, JSON.stringify([...new Set([...given, ...cited])]))
    .all<{ key: string; name: string | null; isNamed: number }>();
  const known = new Map(results.map((row) => [row.key, row.name ?? row.key]));
  const named = results.filter((row) => row.isNamed === 1).map((row) => row.key);
  const about = [...new Set([...given, ...named])];
  const subjects = about.filter((key) => known.has(key)).map((key) => ({ domain: key, name: known.get(key)! }));
  const vendors = [...new Set([...known.keys(), ...(options.ownDomain ? [options.ownDomain] : [])])].filter(
    (key) => !about.includes(key) && cited.includes(key),
  );
  return { subjects, vendors, named };
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
