import { decodeEntities } from '../oms/html-text.ts';
import { SOURCE_TITLE_MAX_CHARS } from '../oms/object-types.ts';
import { calendarDate, cutText, htmlToText, httpUrl } from './feeds.ts';
import { messageOf } from '../ground/errors.ts';

/**
 * Reading a company's open roles from the public job board its careers page links: Greenhouse,
 * Lever or Ashby, each through the board's public JSON API (no key needed), rather than by
 * scraping the board's pages. `jobBoardOf` recognizes a board from a link; `parseJobBoard` reads
 * the API's answer into roles.
 *
 * Every answer is hostile until read: its size and the roles kept are bounded, every field is
 * checked for its type, and what is refused or left out is reported (`ok: false` with a reason,
 * `dropped`, `total`, `truncated`), never thrown. The HTTP status is the caller's concern.
 */

export type JobBoardKind = 'greenhouse' | 'lever' | 'ashby';

export interface JobBoard {
  kind: JobBoardKind;
  /** The board's name in its provider's URLs (Greenhouse's board token, Lever's site, Ashby's job board name). */
  token: string;
  /** The public JSON API that lists the board's open roles. */
  apiUrl: string;
  /** The board's own page, for people. */
  boardUrl: string;
}

export interface JobRole {
  /** The provider's id of the role (a number becomes its decimal string). */
  id: string;
  /** At most SOURCE_TITLE_MAX_CHARS. */
  title: string;
  /** At most MAX_ROLE_FIELD_CHARS, like `team`. */
  location?: string;
  team?: string;
  /** The role's page on the board: absolute http(s), at most 2,048 characters, without user:password. */
  url: string;
  /** Title, location, team, then the description, as paragraphs separated by blank lines; at most MAX_ROLE_TEXT_CHARS. */
  text: string;
  /** YYYY-MM-DD: when the role was last updated (Greenhouse), created (Lever) or published (Ashby). */
  updatedAt?: string;
}

export type ParsedJobBoard =
  | { ok: true; roles: JobRole[]; total: number; truncated: boolean; dropped: number }
  | { ok: false; reason: string };

export interface ParseJobBoardOptions {
  /** Roles read, default 200, at most 5,000. */
  maxRoles?: number;
  /** Largest answer read (bytes; characters for a string), default 5 MiB, at most 50 MiB. */
  maxBytes?: number;
}

/** The hosts of the three providers' public APIs, for a read's outbound allow list. */
export const JOB_BOARD_API_HOSTS: readonly string[] = ['boards-api.greenhouse.io', 'api.lever.co', 'api.ashbyhq.com'];

export const DEFAULT_MAX_ROLES = 200;
export const MAX_ROLES = 5_000;
export const DEFAULT_MAX_BOARD_BYTES = 5 * 1024 * 1024;
export const MAX_BOARD_BYTES = 50 * 1024 * 1024;
/** The longest text kept for one role (characters), cut at a paragraph or word. */
export const MAX_ROLE_TEXT_CHARS = 20_000;
/** The longest location or team kept (characters). */
export const MAX_ROLE_FIELD_CHARS = 200;

/** A board name as the providers make them: letters, digits, dot, underscore, hyphen; not `.` or `..`. */
const TOKEN = /^[A-Za-z0-9._-]{1,100}$/;

function validToken(token: string | null | undefined): token is string {
  return token !== null && token !== undefined && TOKEN.test(token) && token !== '.' && token !== '..';
}

/** The board a provider's host serves, by host name; undefined for any other host. */
const BOARD_HOSTS: Readonly<Record<string, JobBoardKind>> = {
  'boards.greenhouse.io': 'greenhouse',
  'job-boards.greenhouse.io': 'greenhouse',
  'jobs.lever.co': 'lever',
  'jobs.ashbyhq.com': 'ashby',
};

/** First path segments on Greenhouse's hosts that are pages of Greenhouse's own, not boards. */
const GREENHOUSE_PAGES = new Set(['embed', 'v1', 'api', 'assets', 'static']);

/**
 * The public job board a link points to, from a link on a careers page: any page of a board on
 * `boards.greenhouse.io/{token}` or `job-boards.greenhouse.io/{token}` (and Greenhouse's embed,
 * `boards.greenhouse.io/embed/job_board?for={token}`), `jobs.lever.co/{site}` or
 * `jobs.ashbyhq.com/{name}`, over http(s). Undefined for any other link, or a board name that is
 * not 1 to 100 letters, digits, dots, underscores or hyphens.
 * Example: `jobBoardOf('https://jobs.lever.co/acme/5f1c?lever-source=careers')` is
 * `{ kind: 'lever', token: 'acme', apiUrl: 'https://api.lever.co/v0/postings/acme?mode=json', boardUrl: 'https://jobs.lever.co/acme' }`.
 */
export function jobBoardOf(url: string): JobBoard | undefined {
  if (url.length > 2_048 || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const kind = BOARD_HOSTS[parsed.hostname.replace(/\.$/, '')];
  if (kind === undefined) return undefined;
  const first = decodeSegment(parsed.pathname.split('/')[1] ?? '');
  let token: string | undefined = first;
  if (kind === 'greenhouse' && first !== undefined && GREENHOUSE_PAGES.has(first.toLowerCase())) {
    token = first.toLowerCase() === 'embed' ? (parsed.searchParams.get('for') ?? undefined) : undefined;
  }
  return validToken(token) ? boardFor(kind, token) : undefined;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function boardFor(kind: JobBoardKind, token: string): JobBoard {
  switch (kind) {
    case 'greenhouse':
      return {
        kind,
        token,
        apiUrl: `https://boards-api.greenhouse.io/v1/boards/${token}/jobs?content=true`,
        boardUrl: `https://job-boards.greenhouse.io/${token}`,
      };
    case 'lever':
      return { kind, token, apiUrl: `https://api.lever.co/v0/postings/${token}?mode=json`, boardUrl: `https://jobs.lever.co/${token}` };
    case 'ashby':
      return { kind, token, apiUrl: `https://api.ashbyhq.com/posting-api/job-board/${token}`, boardUrl: `https://jobs.ashbyhq.com/${token}` };
  }
}

function clamp(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.max(1, Math.min(Math.floor(value), max));
}

/**
 * Reads the answer of a board's API (`apiUrl` of `jobBoardOf`) into its first `maxRoles` roles, in
 * the board's order: Greenhouse `{ jobs: [...] }` (its `content` is escaped HTML), Lever's array of
 * postings, Ashby `{ jobs: [...] }` (roles with `isListed: false` are not public and are skipped,
 * not counted). A role read without a title or an http(s) URL is dropped and counted. Refused with
 * a reason: an answer over `maxBytes`, HTML (the board answered a page, not JSON), anything else
 * that is not JSON, and JSON not shaped as the provider's API answers.
 * Example: `await parseJobBoard('lever', body, 'application/json')` gives
 * `{ ok: true, roles: [{ id, title: 'Account Executive', location: 'Berlin', team: 'Sales', url, text, updatedAt: '2026-03-02' }], total: 1, truncated: false, dropped: 0 }`.
 */
export async function parseJobBoard(
  kind: JobBoardKind,
  body: Uint8Array | string,
  contentType: string,
  options: ParseJobBoardOptions = {},
): Promise<ParsedJobBoard> {
  const maxRoles = clamp(options.maxRoles, DEFAULT_MAX_ROLES, MAX_ROLES);
  const maxBytes = clamp(options.maxBytes, DEFAULT_MAX_BOARD_BYTES, MAX_BOARD_BYTES);
  const size = typeof body === 'string' ? body.length : body.byteLength;
  if (size > maxBytes) return { ok: false, reason: `larger than ${maxBytes} bytes` };
  const text = (typeof body === 'string' ? body : new TextDecoder().decode(body)).replace(/^\uFEFF/, '').trim();
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  const provider = PROVIDERS[kind];
  if (text.length === 0) return { ok: false, reason: `the ${provider} board answered nothing` };
  // A board that is gone or private may answer a page, sometimes with status 200.
  if (text.startsWith('<')) return { ok: false, reason: `the ${provider} board answered ${text.startsWith('<?xml') ? 'XML' : 'HTML'}, not JSON` };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    if (type === 'text/html') return { ok: false, reason: `the ${provider} board answered HTML, not JSON` };
    return { ok: false, reason: `the ${provider} board answered something that is not JSON (${messageOf(error).slice(0, 200)})` };
  }
  const jobs = kind === 'lever' ? (Array.isArray(doc) ? doc : undefined) : asRecord(doc).jobs;
  if (!Array.isArray(jobs)) {
    return { ok: false, reason: `the ${provider} board answered JSON without ${kind === 'lever' ? 'an array of postings' : 'a jobs array'}` };
  }
  return readRoles(jobs, ROLE_READERS[kind], maxRoles);
}

const PROVIDERS: Readonly<Record<JobBoardKind, string>> = { greenhouse: 'Greenhouse', lever: 'Lever', ashby: 'Ashby' };

/** A piece of a description: HTML, HTML escaped once more (Greenhouse), or plain text. */
interface DescriptionPart {
  value: string;
  format: 'html' | 'escaped-html' | 'plain';
}

/** One posting's fields as a provider names them, before they are checked; `listed: false` skips it. */
interface RawRole {
  id?: string;
  title?: string;
  location?: string;
  team?: string;
  url?: string;
  updatedAt?: string;
  listed: boolean;
  /** Description parts, in order. */
  parts: DescriptionPart[];
}

async function readRoles(jobs: readonly unknown[], read: (job: Record<string, unknown>) => RawRole, maxRoles: number): Promise<ParsedJobBoard> {
  const roles: JobRole[] = [];
  let total = 0;
  let dropped = 0;
  for (const job of jobs) {
    const raw = read(asRecord(job));
    if (!raw.listed) continue;
    total++;
    if (total > maxRoles) continue;
    const role = await roleOf(raw);
    if (role === undefined) dropped++;
    else roles.push(role);
  }
  return { ok: true, roles, total, truncated: total > maxRoles, dropped };
}

async function roleOf(raw: RawRole): Promise<JobRole | undefined> {
  const title = raw.title === undefined ? '' : cutText(oneLine(raw.title, SOURCE_TITLE_MAX_CHARS), SOURCE_TITLE_MAX_CHARS);
  const url = raw.url === undefined ? undefined : httpUrl(raw.url);
  if (!title || url === undefined) return undefined;
  const location = field(raw.location);
  const team = field(raw.team);
  const description: string[] = [];
  let length = 0;
  for (const part of raw.parts) {
    if (length >= MAX_ROLE_TEXT_CHARS) break;
    const text = await partText(part);
    if (text) description.push(text);
    length += text.length;
  }
  const heading = [title, location && `Location: ${location}`, team && `Team: ${team}`].filter(Boolean);
  const text = cutText([...heading, ...description].join('\n\n'), MAX_ROLE_TEXT_CHARS);
  const updatedAt = raw.updatedAt === undefined ? undefined : calendarDate(raw.updatedAt);
  return {
    id: raw.id ?? url,
    title,
    ...(location ? { location } : {}),
    ...(team ? { team } : {}),
    url,
    text,
    ...(updatedAt ? { updatedAt } : {}),
  };
}

function partText(part: DescriptionPart): Promise<string> | string {
  switch (part.format) {
    case 'html':
      return htmlToText(part.value, MAX_ROLE_TEXT_CHARS);
    case 'escaped-html':
      // Decoding can only shorten it: twenty times the text kept is plenty of markup to read.
      return htmlToText(decodeEntities(part.value.slice(0, 20 * MAX_ROLE_TEXT_CHARS)), MAX_ROLE_TEXT_CHARS);
    case 'plain':
      return plainText(part.value, MAX_ROLE_TEXT_CHARS);
  }
}

/** Whitespace collapsed, control characters removed, trimmed; only the first `4 * max` characters read. */
function oneLine(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return value.slice(0, 4 * max).replace(/[\u0000-\u001f\u007f-\u009f\u200b\ufeff]/g, ' ').replace(/\s+/g, ' ').trim();
}

function field(value: string | undefined): string | undefined {
  const text = value === undefined ? '' : cutText(oneLine(value, MAX_ROLE_FIELD_CHARS), MAX_ROLE_FIELD_CHARS);
  return text || undefined;
}

/** Plain text as paragraphs: line breaks kept (blank lines between paragraphs), other whitespace collapsed. */
function plainText(value: string, max: number): string {
  return cutText(
    value
      .slice(0, 2 * max)
      .split(/\r?\n|\r/)
      .map((line) => oneLine(line, max))
      .filter(Boolean)
      .join('\n\n'),
    max,
  );
}

/** Greenhouse: `content` is HTML escaped once more (`&lt;p&gt;`), decoded before it is read as HTML. */
function greenhouseRole(job: Record<string, unknown>): RawRole {
  const content = stringOf(job.content);
  const department = asRecord(listOf(job.departments)[0]);
  return {
    id: idOf(job.id),
    title: stringOf(job.title),
    location: stringOf(asRecord(job.location).name),
    team: stringOf(department.name),
    url: stringOf(job.absolute_url),
    updatedAt: stringOf(job.updated_at),
    listed: true,
    parts: content === undefined ? [] : [{ value: content, format: 'escaped-html' }],
  };
}

/** Lever: the description, its lists (a heading and `<li>` items each) and the closing text; HTML, else their plain forms. */
function leverRole(job: Record<string, unknown>): RawRole {
  const categories = asRecord(job.categories);
  const description = htmlOrPlain(job.description, job.descriptionPlain);
  const lists = listOf(job.lists)
    .slice(0, 50)
    .map(asRecord)
    .map((list) => {
      const heading = stringOf(list.text);
      const items = stringOf(list.content);
      return { value: `${heading ? `<h3>${escapeHtml(heading)}</h3>` : ''}${items ? `<ul>${items}</ul>` : ''}`, format: 'html' } as const;
    });
  const additional = htmlOrPlain(job.additional, job.additionalPlain);
  const created = typeof job.createdAt === 'number' && Number.isFinite(job.createdAt) && Math.abs(job.createdAt) <= 8.64e15 ? new Date(job.createdAt).toISOString() : undefined;
  return {
    id: idOf(job.id),
    title: stringOf(job.text),
    location: stringOf(categories.location),
    team: stringOf(categories.team) ?? stringOf(categories.department),
    url: stringOf(job.hostedUrl),
    updatedAt: created,
    listed: true,
    parts: [description, ...lists, additional].filter((part): part is DescriptionPart => part !== undefined && part.value !== ''),
  };
}

/** Ashby: roles with `isListed: false` are hidden from the public board. */
function ashbyRole(job: Record<string, unknown>): RawRole {
  return {
    id: idOf(job.id),
    title: stringOf(job.title),
    location: stringOf(job.location),
    team: stringOf(job.team) ?? stringOf(job.department),
    // An empty jobUrl is as good as none.
    url: stringOf(job.jobUrl)?.trim() || stringOf(job.applyUrl),
    updatedAt: stringOf(job.publishedAt),
    listed: job.isListed !== false,
    parts: [htmlOrPlain(job.descriptionHtml, job.descriptionPlain)].filter((part) => part !== undefined),
  };
}

const ROLE_READERS: Readonly<Record<JobBoardKind, (job: Record<string, unknown>) => RawRole>> = {
  greenhouse: greenhouseRole,
  lever: leverRole,
  ashby: ashbyRole,
};

function htmlOrPlain(html: unknown, plain: unknown): DescriptionPart | undefined {
  const markup = stringOf(html);
  if (markup?.trim()) return { value: markup, format: 'html' };
  const text = stringOf(plain);
  return text?.trim() ? { value: text, format: 'plain' } : undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** An id as a string: providers send strings (Lever, Ashby) or numbers (Greenhouse). */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
}
