import { z } from './openapi.ts';

/**
 * What a watch reports changed on a company's web (issue 32): each change from the pages its site
 * read found, compared with how they were at the watch's previous succeeded execution. One
 * declaration for the execution record, the webhook payload, the changes feed (REST and MCP) and
 * the dashboard.
 */

export const CHANGE_KINDS = ['pricing', 'product', 'hiring', 'people', 'funding-news', 'customers', 'page', 'other'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Each kind as a heading reads (briefs, the dashboard), in CHANGE_KINDS order. */
export const KIND_HEADINGS: Record<ChangeKind, string> = {
  pricing: 'Pricing',
  product: 'Product and releases',
  hiring: 'Hiring',
  people: 'People',
  'funding-news': 'Funding and news',
  customers: 'Customers',
  page: 'Pages',
  other: 'Other',
};

/**
 * How the thing changed: a sentence `added` to or `removed` from a page (or `changed`: a price read
 * as data, `before` and `after`), a page `new` or `gone`, a role `opened` or `closed`, a feed's
 * `new-entry`.
 */
export const CHANGE_ACTIONS = ['added', 'removed', 'changed', 'new', 'gone', 'opened', 'closed', 'new-entry'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** Characters kept of a change's text, title, before and after. */
export const MAX_CHANGE_TEXT_CHARS = 1_000;
export const MAX_CHANGE_TITLE_CHARS = 300;
/** Changes listed per execution (all kinds together; the count of all is kept). */
export const MAX_CHANGES_LISTED = 100;

export const Change = z
  .object({
    kind: z.enum(CHANGE_KINDS).describe('What the change is about: pricing, product (features, releases, changelog), hiring, people (leadership), funding-news, customers, page (a new or gone page) or other.'),
    action: z.enum(CHANGE_ACTIONS).describe('added or removed (a sentence), changed (a price: before and after), new or gone (a page), opened or closed (a role), new-entry (a feed entry).'),
    text: z.string().describe(`The sentence added or removed (verbatim, at most ${MAX_CHANGE_TEXT_CHARS} characters), or the page's, role's or entry's title.`),
    url: z.string().describe('Where it is said: the page, role or entry URL (for a removal, where it was last seen).'),
    title: z.string().describe("The page's (or role's, or entry's) title."),
    before: z.string().optional().describe('A changed price: the amount before ("$49").'),
    after: z.string().optional().describe('A changed price: the amount now ("$59").'),
    plan: z.string().optional().describe('A changed price: the plan or line it is the price of, as the page names it.'),
    location: z.string().optional().describe('A role: where it is, as the board says.'),
    lastSeenAt: z.string().optional().describe('A removal (a sentence removed, a page gone, a role closed): when it was last seen (ISO).'),
  })
  .openapi('Change');
export type Change = z.output<typeof Change>;
