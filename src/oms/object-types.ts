import { z } from 'zod';
import { Domain, normalizeDomain } from '../ground/schemas/common.ts';
import { withoutCredentials } from '../ground/url-credentials.ts';

/**
 * The default object types and links of the OMS (company by domain, person by lower-cased email,
 * source by canonical URL, brief by run or execution id; the contract's four): how each type's public key is
 * normalized and which properties it takes. Import, research and (later) metadata all read this.
 */

export const OBJECT_TYPES = ['company', 'person', 'source', 'brief'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

/** A company's key: its domain as `Domain` normalizes it (lower-cased, without a leading `www.` or trailing dot). */
export const CompanyKey = Domain;

export const PersonKey = z.string().trim().toLowerCase().pipe(z.email('must be an email address'));

/**
 * A source's key: its canonical URL (http or https, lower-cased host, no fragment). Credentials
 * (`user:pass@`, `?token=` and the like: withoutCredentials) are dropped, since a source's URL is
 * shown in every brief that cites it; so two URLs that differ only by a token are one source.
 */
export const SourceKey = z
  .string()
  .trim()
  .max(2048)
  .transform((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL such as https://acme.com/pricing' });
      return z.NEVER;
    }
    url.hash = '';
    return withoutCredentials(url.href);
  });

const BriefKey = z.string().trim().min(1).max(200);

/**
 * The domain of a URL as `normalizeDomain` gives it (lower-cased, without `www.` or a trailing dot):
 * a source's `domain` property. A host that is no domain name (an IP address) is kept lower-cased.
 */
export function domainOf(url: string): string {
  return normalizeDomain(url) ?? new URL(url).hostname.toLowerCase();
}

const Text = (max: number) => z.string().trim().min(1).max(max);
const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/, 'must be an ISO 8601 date such as 2026-05-01');

/** The longest title and content a source may have, in characters. */
export const SOURCE_TITLE_MAX_CHARS = 500;
export const SOURCE_CONTENT_MAX_CHARS = 200_000;

/** Properties each type accepts. Company and person take extra enrichment fields too. */
export const PROPERTY_SCHEMAS = {
  company: z.looseObject({ name: Text(200).optional(), domain: Domain.optional(), description: Text(5000).optional() }),
  person: z.looseObject({ name: Text(200).optional(), email: z.email().optional(), title: Text(200).optional() }),
  source: z.strictObject({
    title: Text(SOURCE_TITLE_MAX_CHARS),
    url: z.string().optional(),
    domain: Domain.optional(),
    publishedAt: IsoDate.optional(),
    content: Text(SOURCE_CONTENT_MAX_CHARS),
  }),
  brief: z.strictObject({
    topic: Text(500),
    markdown: Text(500_000),
    createdAt: IsoDate,
    tier: z.enum(['lite', 'base']).optional(),
    engine: z.string().optional(),
  }),
} as const satisfies Record<ObjectType, z.ZodType>;

export const KEY_SCHEMAS: Record<ObjectType, z.ZodType<string, string>> = {
  company: CompanyKey,
  person: PersonKey,
  source: SourceKey,
  brief: BriefKey,
};

export interface LinkDefinition {
  name: string;
  from: ObjectType;
  to: ObjectType;
  /** The name of the same link read from its target (`company.competitorOf`, ...). */
  inverse: string;
}

export const LINKS: readonly LinkDefinition[] = [
  { name: 'competitors', from: 'company', to: 'company', inverse: 'competitorOf' },
  { name: 'people', from: 'company', to: 'person', inverse: 'employer' },
  { name: 'about', from: 'brief', to: 'company', inverse: 'briefs' },
  { name: 'cites', from: 'brief', to: 'source', inverse: 'citedBy' },
];

/**
 * What metadata says of each property (`GET /api/v1/oms/metadata`): its type and a description.
 * Keyed by the names of PROPERTY_SCHEMAS' shapes, so the compiler refuses a property described
 * here that does not validate there, or one that validates without a description. `searchable`:
 * the text a search's `query` looks in.
 */
export type PropertyType = 'string' | 'text' | 'domain' | 'email' | 'url' | 'date' | 'enum';
export interface PropertyInfo {
  type: PropertyType;
  description: string;
  searchable?: boolean;
}

type Described<T extends ObjectType> = Record<keyof (typeof PROPERTY_SCHEMAS)[T]['shape'] & string, PropertyInfo>;

export const PROPERTY_INFO: { [T in ObjectType]: Described<T> } = {
  company: {
    name: { type: 'string', description: 'The company name, e.g. "Acme Analytics".', searchable: true },
    domain: { type: 'domain', description: 'The company website domain, normalized like the key.', searchable: true },
    description: { type: 'text', description: 'What the company does, up to 5,000 characters.', searchable: true },
  },
  person: {
    name: { type: 'string', description: 'The person name.', searchable: true },
    email: { type: 'email', description: 'The email address.', searchable: true },
    title: { type: 'string', description: 'The job title, e.g. "VP Product".', searchable: true },
  },
  source: {
    title: { type: 'string', description: 'The page title.', searchable: true },
    url: { type: 'url', description: 'The canonical URL (the same as the key).' },
    domain: { type: 'domain', description: 'The domain of the URL.' },
    publishedAt: { type: 'date', description: 'When the page was published (ISO 8601).' },
    content: { type: 'text', description: 'The page text that research and audits quote.', searchable: true },
  },
  brief: {
    topic: { type: 'string', description: 'The research topic.', searchable: true },
    markdown: { type: 'text', description: 'The brief as markdown, with citations.', searchable: true },
    createdAt: { type: 'date', description: 'When the brief was written (ISO 8601).' },
    tier: { type: 'enum', description: 'The research tier: lite or base.' },
    engine: { type: 'string', description: 'The research engine that wrote it.' },
  },
};

/** What metadata says of each type besides its properties. */
export const TYPE_INFO: Record<ObjectType, { displayName: string; key: string }> = {
  company: { displayName: 'Company', key: 'domain, normalized: lower-cased, without a leading www. (https://www.Acme.com/ is acme.com)' },
  person: { displayName: 'Person', key: 'email address, lower-cased' },
  source: { displayName: 'Source', key: 'canonical URL: http(s), lower-cased host, no fragment or credentials (user:pass@, ?token= and other secret parameters)' },
  brief: { displayName: 'Brief', key: 'the id of the run or watch execution that wrote it' },
};

/** Bumped whenever the types, properties or links change, so a client can cache metadata. */
export const METADATA_VERSION = 1;

/** A link as read from one side: `forward` from its `from` type by `name`, or backward by its `inverse`. */
export interface LinkView {
  name: string;
  link: LinkDefinition;
  forward: boolean;
  targetType: ObjectType;
}

/** The links a type can be pivoted along: its own links, then the inverses of links that point at it. */
export function linksOf(type: ObjectType): LinkView[] {
  return [
    ...LINKS.filter((l) => l.from === type).map((link) => ({ name: link.name, link, forward: true, targetType: link.to })),
    ...LINKS.filter((l) => l.to === type).map((link) => ({ name: link.inverse, link, forward: false, targetType: link.from })),
  ];
}
