import { Unzlib } from 'fflate';
import { getResolvedPDFJS } from 'unpdf';
import type { PDFDocumentProxy, PDFPageProxy } from 'unpdf/pdfjs';
import { SOURCE_CONTENT_MAX_CHARS, SOURCE_TITLE_MAX_CHARS } from '../oms/object-types.ts';
import { messageOf } from '../ground/errors.ts';

/**
 * The text of a PDF a site links to (a price sheet, a datasheet), for a `source` object: its title,
 * its text as paragraphs separated by blank lines (the shape src/oms/html-text.ts gives a web page,
 * so the research engine splits passages the same way), and the date it names.
 *
 * pdf.js reads the file (the serverless build that `unpdf` ships, which runs pdf.js's worker on the
 * calling thread: no Worker or file system is needed, and it runs in workerd as it is). Every file
 * is hostile until read, and every bound is reported as data, never thrown:
 * - the size (MAX_PDF_BYTES) and the `%PDF-` header are checked before pdf.js sees a byte, and so
 *   is what the file's Flate streams inflate to (checkInflatedSizes): pdf.js keeps a decoded stream
 *   whole in memory, so one small stream of whitespace that inflates to 256 MiB took about 10 s and
 *   600 MiB of memory in workerd, far past a Worker's 128 MiB;
 * - a file pdf.js cannot open (malformed, cut short) or that needs a password is refused with a
 *   sentence saying so;
 * - pages are read one at a time, at most `maxPages`, and reading stops at `maxChars` characters or
 *   once `deadlineMs` has passed, checked between pages and between the chunks of text pdf.js hands
 *   over within a page (the page's text stream is cancelled as soon as a bound is met, which stops
 *   pdf.js's work on it); the document is always destroyed, which ends pdf.js's side of the work.
 */

/** The largest PDF read: a linked PDF is read up to 10 MiB. */
export const MAX_PDF_BYTES = 10 * 1024 * 1024;
/** Pages read by default, and the most a caller may ask for. */
export const DEFAULT_MAX_PAGES = 100;
export const MAX_PAGES_LIMIT = 1_000;
/** How long a read may go on by default (checked between pages and text chunks), and the most a caller may ask for. */
export const DEFAULT_DEADLINE_MS = 5_000;
export const MAX_DEADLINE_MS = 60_000;

/**
 * The most one stream may inflate to, and all of a file's streams together (images not counted:
 * text extraction never decodes them). Bounds pdf.js's memory (it holds a decoded stream whole,
 * in a buffer grown by doubling) and the work of decoding.
 */
export const MAX_INFLATED_STREAM_BYTES = 16 * 1024 * 1024;
export const MAX_INFLATED_TOTAL_BYTES = 128 * 1024 * 1024;

/** What became of a PDF: its text, or why it was not read (a sentence a person can act on). */
export type PdfText =
  | {
      ok: true;
      /** The document's Title, collapsed, at most SOURCE_TITLE_MAX_CHARS; absent when it names none. */
      title?: string;
      /** Paragraphs of text separated by blank lines, at most `maxChars`; empty when the pages hold no text (a scan). */
      text: string;
      /** Pages in the document, and pages whose text was read (fewer when a bound stopped the read). */
      pages: number;
      pagesRead: number;
      /** There was more text than `maxChars`: `text` was cut at a paragraph break. */
      truncated: boolean;
      /** The bound that stopped the read before the last page, when one did. */
      stoppedBy?: 'maxPages' | 'maxChars' | 'deadline';
      /** YYYY-MM-DD from the document's CreationDate (else ModDate), when it holds a valid date. */
      publishedAt?: string;
    }
  | { ok: false; reason: string };

export interface PdfTextOptions {
  /** Pages read, from the first: default 100, at most 1,000. */
  maxPages?: number;
  /** Characters of text kept: default and at most SOURCE_CONTENT_MAX_CHARS (200,000). */
  maxChars?: number;
  /** Milliseconds after which no further page or text chunk is read: default 5,000, at most 60,000. */
  deadlineMs?: number;
  /** The clock the deadline is measured on (milliseconds); Date.now by default. */
  now?: () => number;
}

/**
 * Reads the title, text and date of a PDF. `bytes` are not changed (pdf.js is given a copy, as it
 * takes ownership of its input). Never throws for what the file holds: a file that is too large,
 * not a PDF, malformed, cut short or locked by a password comes back `{ ok: false, reason }`.
 *
 * @example
 * const read = await readPdfText(new Uint8Array(await response.arrayBuffer()), { maxPages: 20 });
 * if (read.ok) console.log(read.title, read.text.length, `${read.pagesRead}/${read.pages} pages`);
 * else console.log(`not read: ${read.reason}`);
 */
export async function readPdfText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const now = options.now ?? Date.now;
  const maxPages = bound(options.maxPages, DEFAULT_MAX_PAGES, 1, MAX_PAGES_LIMIT);
  const maxChars = bound(options.maxChars, SOURCE_CONTENT_MAX_CHARS, 1, SOURCE_CONTENT_MAX_CHARS);
  const deadlineMs = bound(options.deadlineMs, DEFAULT_DEADLINE_MS, 0, MAX_DEADLINE_MS);

  if (bytes.byteLength > MAX_PDF_BYTES) {
    return refused(`the PDF is larger than 10 MiB (${(bytes.byteLength / 1024 / 1024).toFixed(1)} MiB), the most a site read takes`);
  }
  if (!hasPdfHeader(bytes)) return refused('not a PDF: the file does not start with a "%PDF-" header');
  const inflation = checkInflatedSizes(bytes);
  if (inflation !== undefined) return refused(inflation);

  const { getDocument } = await getResolvedPDFJS();
  // The deadline counts the file's work, not loading pdf.js (once per isolate).
  const deadline = now() + deadlineMs;
  const task = getDocument({
    data: bytes.slice(),
    // Text needs no rendering: no fonts installed or standard font files fetched, no WebAssembly
    // decoders fetched, no image decoding off the page; warnings not printed (a hostile file can
    // make thousands, and each console line costs).
    disableFontFace: true,
    useSystemFonts: true,
    useWasm: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    verbosity: 0,
  });
  try {
    let document: PDFDocumentProxy;
    try {
      document = await task.promise;
    } catch (error) {
      return refused(whyNotOpened(error));
    }
    const read = await readPages(document, { maxPages, maxChars, deadline, now });
    if (read.failure !== undefined && read.pagesRead === 0) return refused(read.failure);
    const info = await documentInfo(document);
    return {
      ok: true,
      ...(info.title ? { title: info.title } : {}),
      text: read.text,
      pages: document.numPages,
      pagesRead: read.pagesRead,
      truncated: read.truncated,
      ...(read.stoppedBy ? { stoppedBy: read.stoppedBy } : {}),
      ...(info.publishedAt ? { publishedAt: info.publishedAt } : {}),
    };
  } finally {
    // Ends pdf.js's worker side too; a failure to clean up is not the file's fault.
    await task.destroy().catch(() => undefined);
  }
}

const MIB = 1024 * 1024;

/**
 * Why the file's streams inflate to too much (a compression bomb), or undefined when they do not.
 * Finds each `stream ... endstream` in the raw bytes, and inflates those whose dictionary names
 * only FlateDecode filters (chained ones in turn) and that are not images, counting the output and
 * stopping at the bounds: input is pushed 4 KiB at a time, so no push can inflate past about 4 MiB
 * (deflate's best ratio is about 1,032 to 1) before the count is checked. A stream that does not
 * inflate (corrupt, or encrypted: a file with an empty user password is read, its streams are
 * ciphertext here) is left to pdf.js, as are filters other than Flate.
 */
function checkInflatedSizes(bytes: Uint8Array): string | undefined {
  let total = 0;
  for (const stream of flateStreams(bytes)) {
    const limit = Math.min(MAX_INFLATED_STREAM_BYTES, MAX_INFLATED_TOTAL_BYTES - total);
    const size = inflatedSize(stream.data, stream.layers, limit);
    if (size > limit) {
      return size > MAX_INFLATED_STREAM_BYTES || limit === MAX_INFLATED_STREAM_BYTES
        ? `the PDF holds a compressed stream that expands to more than ${MAX_INFLATED_STREAM_BYTES / MIB} MiB (a compression bomb), too much to read safely`
        : `the PDF's compressed streams expand to more than ${MAX_INFLATED_TOTAL_BYTES / MIB} MiB in all, too much to read safely`;
    }
    total += size;
  }
  return undefined;
}

const STREAM = Uint8Array.from('stream', (char) => char.charCodeAt(0));
const END_STREAM = Uint8Array.from('endstream', (char) => char.charCodeAt(0));
/** How far before `stream` its dictionary is looked for. */
const DICTIONARY_WINDOW = 4096;

/** The index of `needle` in `bytes` from `from`, or -1. */
function indexOf(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = bytes.indexOf(first, from); i !== -1 && i <= bytes.byteLength - needle.byteLength; i = bytes.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.byteLength && bytes[i + j] === needle[j]) j++;
    if (j === needle.byteLength) return i;
  }
  return -1;
}

/** The Flate-only, non-image streams of a file, with how many Flate layers each has. */
function* flateStreams(bytes: Uint8Array): Generator<{ data: Uint8Array; layers: number }> {
  for (let at = indexOf(bytes, STREAM, 0); at !== -1; at = indexOf(bytes, STREAM, at + STREAM.byteLength)) {
    // `endstream` ends a stream; only `stream` after a dictionary's `>>` starts one.
    const before = String.fromCharCode(...bytes.subarray(Math.max(0, at - DICTIONARY_WINDOW), at));
    if (!/>>\s*$/.test(before)) continue;
    const dictionary = before.slice(Math.max(0, before.lastIndexOf('obj')));
    if (/\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const filters = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dictionary)?.[1]?.match(/\/[A-Za-z0-9]+/g) ?? [];
    if (filters.length === 0 || filters.some((name) => name !== '/FlateDecode')) continue;
    let start = at + STREAM.byteLength;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    const end = indexOf(bytes, END_STREAM, start);
    if (end === -1) return;
    yield { data: bytes.subarray(start, end), layers: filters.length };
    at = end;
  }
}

/**
 * How many bytes `data` inflates to through `layers` zlib layers, counted up to just past `limit`
 * (the work stops there); what inflated before an error when the data is not zlib.
 */
function inflatedSize(data: Uint8Array, layers: number, limit: number): number {
  let size = 0;
  const last = new Unzlib((chunk) => {
    size += chunk.byteLength;
  });
  let head: Unzlib = last;
  for (let layer = 1; layer < layers; layer++) {
    const next = head;
    // Each layer's output feeds the next in pieces of 4 KiB, for the same reason as the input's.
    head = new Unzlib((chunk, final) => {
      for (let i = 0; i < chunk.byteLength && size <= limit; i += 4096) next.push(chunk.subarray(i, i + 4096), final && i + 4096 >= chunk.byteLength);
    });
  }
  try {
    for (let i = 0; i < data.byteLength && size <= limit; i += 4096) head.push(data.subarray(i, i + 4096), i + 4096 >= data.byteLength);
  } catch {
    // Not zlib data (or ciphertext): pdf.js decides what to make of it.
  }
  return size;
}

function refused(reason: string): PdfText {
  return { ok: false, reason };
}

function bound(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.max(min, Math.min(Math.floor(value), max));
}

const HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** Whether `%PDF-` starts within the first 1,024 bytes, where readers (Acrobat, pdf.js) look for it. */
function hasPdfHeader(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.byteLength, 1024) - HEADER.length;
  outer: for (let i = 0; i <= end; i++) {
    for (let j = 0; j < HEADER.length; j++) if (bytes[i + j] !== HEADER[j]) continue outer;
    return true;
  }
  return false;
}

/** A sentence for why pdf.js could not open a file, from the name of the exception it gave. */
function whyNotOpened(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  const detail = messageOf(error).slice(0, 200);
  if (name === 'PasswordException') return 'the PDF is encrypted and needs a password to open; ask for an unprotected copy';
  if (name === 'InvalidPDFException') return `the PDF is malformed or cut short and could not be opened (${detail})`;
  return `the PDF could not be opened (${detail})`;
}

interface PageBounds {
  maxPages: number;
  maxChars: number;
  deadline: number;
  now: () => number;
}

interface PagesRead {
  text: string;
  pagesRead: number;
  truncated: boolean;
  stoppedBy?: 'maxPages' | 'maxChars' | 'deadline';
  /** Why the first unreadable page could not be read, when one could not. */
  failure?: string;
}

/**
 * Reads pages in order until the last page, `maxPages`, `maxChars` or the deadline. A page pdf.js
 * fails on ends the read there (what came before is kept).
 */
async function readPages(document: PDFDocumentProxy, bounds: PageBounds): Promise<PagesRead> {
  const paragraphs: string[] = [];
  let chars = 0;
  let pagesRead = 0;
  let stoppedBy: PagesRead['stoppedBy'];
  let failure: string | undefined;
  const last = Math.min(document.numPages, bounds.maxPages);
  for (let number = 1; number <= last; number++) {
    if (chars >= bounds.maxChars) {
      stoppedBy = 'maxChars';
      break;
    }
    if (number > 1) {
      // A turn of the event loop between pages: Workers advance Date.now() only across I/O (a
      // timer counts), and pdf.js works in microtasks, so without it the clock would stand still.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (bounds.now() >= bounds.deadline) {
        stoppedBy = 'deadline';
        break;
      }
    }
    let page: PDFPageProxy | undefined;
    try {
      page = await document.getPage(number);
      const read = await pageParagraphs(page, bounds.maxChars - chars, bounds);
      for (const paragraph of read.paragraphs) {
        chars += (paragraphs.length > 0 ? 2 : 0) + paragraph.length;
        paragraphs.push(paragraph);
      }
      if (read.stoppedBy) {
        // A page stopped part way was read only in part: it is not counted as read.
        stoppedBy = read.stoppedBy;
        break;
      }
      pagesRead++;
    } catch (error) {
      failure = `page ${number} of the PDF could not be read (${messageOf(error).slice(0, 200)})`;
      break;
    } finally {
      page?.cleanup();
    }
  }
  if (stoppedBy === undefined && failure === undefined && document.numPages > last) stoppedBy = 'maxPages';
  const text = paragraphs.join('\n\n');
  const cut = cutAtBreak(text, bounds.maxChars);
  return {
    text: cut,
    pagesRead,
    truncated: cut.length < text.length || stoppedBy === 'maxChars',
    ...(stoppedBy ? { stoppedBy } : {}),
    ...(failure ? { failure } : {}),
  };
}

/** A piece of text pdf.js found on a page (its marked-content markers carry no `str`). */
interface TextPiece {
  str: string;
  transform: number[];
  height: number;
  hasEOL: boolean;
}

function isTextPiece(item: unknown): item is TextPiece {
  return typeof item === 'object' && item !== null && typeof (item as { str?: unknown }).str === 'string' && Array.isArray((item as { transform?: unknown }).transform);
}

interface Line {
  text: string;
  /** Baseline and font height, in the page's units (points). */
  y: number;
  height: number;
}

/**
 * The paragraphs of one page, read chunk by chunk from pdf.js's text stream. Stops (cancelling the
 * stream, which ends pdf.js's work on the page) once the page has more than `budget` characters
 * (each piece counted as at least one, so millions of empty pieces stop too) or the deadline has
 * passed.
 */
async function pageParagraphs(
  page: PDFPageProxy,
  budget: number,
  bounds: PageBounds,
): Promise<{ paragraphs: string[]; stoppedBy?: 'maxChars' | 'deadline' }> {
  const reader = page.streamTextContent().getReader();
  const lines: Line[] = [];
  let line: Line | undefined;
  let used = 0;
  let stoppedBy: 'maxChars' | 'deadline' | undefined;
  const endLine = () => {
    if (line && line.text.trim() !== '') lines.push(line);
    line = undefined;
  };
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      for (const item of chunk.value.items) {
        if (!isTextPiece(item)) continue;
        used += Math.max(1, item.str.length);
        if (item.str !== '') {
          line ??= { text: '', y: item.transform[5] ?? 0, height: pieceHeight(item) };
          line.text += item.str;
        }
        if (item.hasEOL) endLine();
      }
      stoppedBy = used > budget ? 'maxChars' : bounds.now() >= bounds.deadline ? 'deadline' : undefined;
      if (stoppedBy) {
        // The reason must be an Error (pdf.js asserts it). Not awaited: pdf.js confirms a cancel only
        // for a stream its worker side still holds, and destroying the document ends the rest.
        reader.cancel(new Error(`stopped at ${stoppedBy}`)).catch(() => undefined);
        break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  endLine();
  return { paragraphs: paragraphsOf(lines), ...(stoppedBy ? { stoppedBy } : {}) };
}

function pieceHeight(item: TextPiece): number {
  const [, , c = 0, d = 0] = item.transform;
  const height = item.height > 0 ? item.height : Math.hypot(c, d);
  return Number.isFinite(height) && height > 0 ? height : 12;
}

// A line starting with a bullet is a list item: its own paragraph, as html-text makes an `li`.
const BULLET = /^[•‣◦▪▫■□●○–—*-]\s/;

/**
 * Lines joined into paragraphs. PDF has no paragraphs, only positioned lines: a new paragraph
 * starts where the gap to the line above is more than 1.5 times the taller line's height (ordinary
 * line spacing is 1.1 to 1.3), where the text moves up the page (a new column or a box drawn out of
 * order), or at a bullet. Lines of one paragraph are joined with a space, so a sentence wrapped
 * over two lines stays one sentence.
 */
function paragraphsOf(lines: readonly Line[]): string[] {
  const paragraphs: string[] = [];
  let current = '';
  let previous: Line | undefined;
  for (const line of lines) {
    const text = collapse(line.text);
    if (text === '') continue;
    const gap = previous ? previous.y - line.y : 0;
    const height = previous ? Math.max(previous.height, line.height) : line.height;
    const breaks = !previous || gap > 1.5 * height || gap < -0.5 * height || BULLET.test(text);
    if (breaks && current !== '') {
      paragraphs.push(current);
      current = '';
    }
    current = current === '' ? text : `${current} ${text}`;
    previous = line;
  }
  if (current !== '') paragraphs.push(current);
  return paragraphs;
}

// Controls (but tab and line breaks, which collapse as whitespace), soft hyphens, zero-width
// characters and byte-order marks: invisible on the page, noise in a quote.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** Invisible characters removed, whitespace collapsed, trimmed. */
function collapse(raw: string): string {
  return raw.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

/**
 * `text` cut to at most `max` characters: at the last paragraph break that fits, else the last
 * space, else exactly at `max` (never inside a surrogate pair).
 */
function cutAtBreak(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 2);
  const paragraph = head.lastIndexOf('\n\n');
  if (paragraph > 0 && paragraph <= max) return text.slice(0, paragraph);
  const space = text.lastIndexOf(' ', max);
  if (space > 0) return text.slice(0, space);
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}

/**
 * The title and date of the document information dictionary. pdf.js also parses the XMP metadata
 * stream here; a document whose metadata cannot be read is read without a title or date.
 */
async function documentInfo(document: PDFDocumentProxy): Promise<{ title?: string; publishedAt?: string }> {
  let info: unknown;
  try {
    info = (await document.getMetadata()).info;
  } catch {
    return {};
  }
  const field = (name: string): string | undefined => {
    const value = typeof info === 'object' && info !== null ? (info as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  // A title of megabytes is cut before it is cleaned, so cleaning costs no more than a title can be.
  const title = collapse((field('Title') ?? '').slice(0, SOURCE_TITLE_MAX_CHARS * 4)).slice(0, SOURCE_TITLE_MAX_CHARS).trim();
  const publishedAt = pdfDate(field('CreationDate')) ?? pdfDate(field('ModDate'));
  return { ...(title ? { title } : {}), ...(publishedAt ? { publishedAt } : {}) };
}

const PDF_DATE = /^\s*(?:D:)?(\d{4})(\d{2})(\d{2})/;

/**
 * YYYY-MM-DD from a PDF date string (`D:YYYYMMDDHHmmSS+HH'mm'`, ISO 32000-1 7.9.4) when it starts
 * with a real calendar date from 1900 on, taken as written (the document's own day, not moved to UTC).
 */
function pdfDate(value: string | undefined): string | undefined {
  const match = value ? PDF_DATE.exec(value) : null;
  if (!match) return undefined;
  const [, y, m, d] = match;
  const text = `${y}-${m}-${d}`;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return Number(y) >= 1900 && date.toISOString().slice(0, 10) === text ? text : undefined;
}
