import { zlibSync } from 'fflate';

/**
 * PDF files for tests, written byte by byte in PDF syntax (ISO 32000-1): numbered indirect objects,
 * a cross-reference table whose entries are the objects' real byte offsets, and a trailer. Nothing
 * here uses a PDF library, so what the reader under test makes of a file is its own doing.
 *
 * Pages show their lines in Helvetica (a standard font, so no font program is embedded) with
 * WinAnsiEncoding, one line per `T*` at a leading of 14 points: `lines: ['Pricing', '', 'The Fleet
 * plan ...']` puts a blank line (a taller gap) between the heading and the sentence.
 */

/** One indirect object: PDF syntax for a dictionary, array, string..., or a stream with its dictionary entries. */
export type PdfObject = string | { dictionary: string; data: Uint8Array };

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * A whole PDF file of `objects` (numbered 1, 2, ... in order; object 1 must be the catalog):
 * header, objects, a classic xref table with each object's byte offset, and a trailer with /Size,
 * /Root and `trailerEntries` (e.g. `/Info 7 0 R`). A stream gets its /Length written for it.
 */
export function writePdf(objects: readonly PdfObject[], trailerEntries = ''): Uint8Array {
  // A comment of four bytes above 127 after the header marks the file as binary, as writers do.
  const parts: Uint8Array[] = [latin1('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n')];
  let length = parts[0]!.byteLength;
  const offsets: number[] = [];
  const push = (part: Uint8Array) => {
    parts.push(part);
    length += part.byteLength;
  };
  objects.forEach((object, index) => {
    offsets.push(length);
    const number = index + 1;
    if (typeof object === 'string') {
      push(latin1(`${number} 0 obj\n${object}\nendobj\n`));
    } else {
      push(latin1(`${number} 0 obj\n<< /Length ${object.data.byteLength} ${object.dictionary} >>\nstream\n`));
      push(object.data);
      push(latin1('\nendstream\nendobj\n'));
    }
  });
  const xrefOffset = length;
  // Each entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, and a two-byte end of line.
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  push(
    latin1(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerEntries} >>\nstartxref\n${xrefOffset}\n%%EOF\n`,
    ),
  );
  return concat(parts);
}

/** What WinAnsiEncoding puts at 0x80-0x9F, for the characters tests use. */
const WIN_ANSI: Record<string, number> = { '€': 0x80, '‚': 0x82, '„': 0x84, '…': 0x85, '•': 0x95, '–': 0x96, '—': 0x97, '™': 0x99, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94 };

/**
 * `text` as a PDF literal string, parentheses included: `(`, `)` and `\` escaped with a backslash,
 * control characters and the characters WinAnsiEncoding has above 127 written as octal escapes,
 * anything else as `?`.
 * pdfString('a (b) \\ €') === '(a \\(b\\) \\\\ \\200)'.
 */
export function pdfString(text: string): string {
  let out = '(';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '(' || char === ')' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (code < 0x20) out += `\\${code.toString(8).padStart(3, '0')}`;
    else {
      const byte = WIN_ANSI[char] ?? (code >= 0xa0 && code <= 0xff ? code : undefined);
      out += byte === undefined ? '?' : `\\${byte.toString(8).padStart(3, '0')}`;
    }
  }
  return `${out})`;
}

/** A content stream showing `lines` from the top of a Letter page, one per line at 14 points' leading. */
export function textContent(lines: readonly string[]): string {
  const shown = lines.map((line) => (line === '' ? 'T*' : `${pdfString(line)} Tj T*`)).join('\n');
  return `BT\n/F1 12 Tf\n14 TL\n72 720 Td\n${shown}\nET\n`;
}

export interface PdfPage {
  /** Lines of text shown on the page; an empty string leaves a blank line. */
  lines?: readonly string[];
  /** The page's content stream as given (instead of `lines`), e.g. already compressed. */
  content?: Uint8Array;
  /** The /Filter of `content`, e.g. '/FlateDecode'. */
  filter?: string;
  /** Compress the content made from `lines` with zlib (/FlateDecode). */
  compress?: boolean;
}

export interface PdfDocument {
  pages: readonly PdfPage[];
  /** Entries of the document information dictionary, e.g. { Title: 'Price sheet', CreationDate: "D:20250314120000Z" }. */
  info?: Readonly<Record<string, string>>;
  /** Add a standard security handler that needs a password nobody knows (see encryptDictionary). */
  encrypted?: boolean;
}

/**
 * A PDF of `document.pages`: catalog, page tree, one Helvetica font shared by every page, then
 * each page and its content stream, then the info and encryption dictionaries when asked for.
 */
export function buildPdf(document: PdfDocument): Uint8Array {
  const firstPage = 4;
  const pageRefs = document.pages.map((_, index) => `${firstPage + index * 2} 0 R`);
  const objects: PdfObject[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageRefs.join(' ')}] /Count ${document.pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  document.pages.forEach((page, index) => {
    const contentRef = `${firstPage + index * 2 + 1} 0 R`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentRef} >>`);
    objects.push(contentStream(page));
  });
  const trailer: string[] = [];
  if (document.info) {
    const entries = Object.entries(document.info).map(([key, value]) => `/${key} ${pdfString(value)}`);
    objects.push(`<< ${entries.join(' ')} >>`);
    trailer.push(`/Info ${objects.length} 0 R`);
  }
  if (document.encrypted) {
    objects.push(encryptDictionary());
    // An encrypted file must have a file identifier: it is part of the key.
    trailer.push(`/Encrypt ${objects.length} 0 R /ID [<${hex(randomBytes(16, 7))}> <${hex(randomBytes(16, 8))}>]`);
  }
  return writePdf(objects, trailer.join(' '));
}

function contentStream(page: PdfPage): PdfObject {
  if (page.content) return { dictionary: page.filter ? `/Filter ${page.filter}` : '', data: page.content };
  const data = latin1(textContent(page.lines ?? []));
  return page.compress ? { dictionary: '/Filter /FlateDecode', data: zlibSync(data) } : { dictionary: '', data };
}

/**
 * A standard security handler dictionary, revision 3 with a 128-bit RC4 key, whose /O and /U
 * entries are random: no password opens it, the empty one included (a reader checks a password
 * against /U, and random bytes match no key's hash).
 */
export function encryptDictionary(): string {
  return `<< /Filter /Standard /V 2 /R 3 /Length 128 /P -3904 /O <${hex(randomBytes(32, 1))}> /U <${hex(randomBytes(32, 2))}> >>`;
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** A one-page PDF showing `lines`. */
export function textPdf(lines: readonly string[], options: Omit<PdfDocument, 'pages'> = {}): Uint8Array {
  return buildPdf({ ...options, pages: [{ lines }] });
}

/** A PDF with a page per entry of `pages`, each showing its lines. */
export function multiPagePdf(pages: readonly (readonly string[])[], options: Omit<PdfDocument, 'pages'> = {}): Uint8Array {
  return buildPdf({ ...options, pages: pages.map((lines) => ({ lines })) });
}

/** The first `keep` of `pdf`'s bytes: a download cut short. */
export function truncated(pdf: Uint8Array, keep: number): Uint8Array {
  return pdf.slice(0, keep);
}

/** `size` bytes from a seeded generator (xorshift32): the same bytes for the same seed, every run. */
export function randomBytes(size: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

/**
 * A zlib stream (RFC 1950/1951) that inflates to `unit` repeated to exactly `size` bytes, written
 * directly rather than compressed: `unit` once as literals, then back-references of the longest
 * length (258) to the bytes `unit.length` back, in one block of fixed Huffman codes. Each reference
 * costs 13 to 21 bits, so 256 MiB of spaces take about 1.6 MB: a compression bomb made in
 * milliseconds, where compressing the bytes would take seconds and hold them all in memory.
 * `unit` is 1 to 32,768 bytes (deflate's window) and `size` at least `unit.length`.
 */
export function deflateRepeated(unit: Uint8Array, size: number): Uint8Array {
  const length = unit.byteLength;
  if (length < 1 || length > 32_768 || size < length) throw new RangeError('deflateRepeated: unit of 1 to 32,768 bytes, size at least its length');
  const bits = new BitWriter();
  bits.write(1, 1); // BFINAL: one block
  bits.write(1, 2); // BTYPE 01: fixed Huffman codes
  for (const byte of unit) writeLiteral(bits, byte);
  const distance = distanceCode(length);
  let left = size - length;
  while (left >= 3) {
    const run = Math.min(258, left);
    // Lengths 3-257 would need their own codes; ending with literals keeps this to code 285.
    if (run < 258) break;
    bits.writeCode(0b11000101, 8); // length 258: code 285, fixed code 11000101
    bits.writeCode(distance.code, 5);
    bits.write(distance.extra, distance.extraBits);
    left -= 258;
  }
  for (let i = size - left; i < size; i++) writeLiteral(bits, unit[i % length]!);
  bits.writeCode(0, 7); // end of block: code 256, fixed code 0000000
  const adler = adler32Repeated(unit, size);
  return concat([Uint8Array.of(0x78, 0x01), bits.finish(), Uint8Array.of(adler >>> 24, (adler >>> 16) & 0xff, (adler >>> 8) & 0xff, adler & 0xff)]);
}

function writeLiteral(bits: BitWriter, byte: number): void {
  // Fixed codes: 0-143 are 8 bits from 00110000, 144-255 are 9 bits from 110010000.
  if (byte < 144) bits.writeCode(0x30 + byte, 8);
  else bits.writeCode(0x190 + byte - 144, 9);
}

/** Deflate's distance code for `distance` (1-32,768): the code, and its extra bits' value and count. */
function distanceCode(distance: number): { code: number; extra: number; extraBits: number } {
  if (distance <= 4) return { code: distance - 1, extra: 0, extraBits: 0 };
  for (let code = 4; code < 30; code++) {
    const extraBits = (code >> 1) - 1;
    const base = ((2 + (code & 1)) << extraBits) + 1;
    if (distance < base + (1 << extraBits)) return { code, extra: distance - base, extraBits };
  }
  throw new RangeError(`distance ${distance} is past deflate's window`);
}

/** Bits packed the way deflate reads them: values from their least significant bit, Huffman codes from their most. */
class BitWriter {
  private readonly chunks: Uint8Array[] = [];
  private buffer = new Uint8Array(1 << 16);
  private used = 0;
  private bitBuffer = 0;
  private bitCount = 0;

  write(value: number, count: number): void {
    for (let i = 0; i < count; i++) this.bit((value >>> i) & 1);
  }

  writeCode(code: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.bit((code >>> i) & 1);
  }

  finish(): Uint8Array {
    if (this.bitCount > 0) this.byte(this.bitBuffer);
    this.chunks.push(this.buffer.slice(0, this.used));
    return concat(this.chunks);
  }

  private bit(bit: number): void {
    this.bitBuffer |= bit << this.bitCount;
    if (++this.bitCount === 8) {
      this.byte(this.bitBuffer);
      this.bitBuffer = 0;
      this.bitCount = 0;
    }
  }

  private byte(byte: number): void {
    if (this.used === this.buffer.byteLength) {
      this.chunks.push(this.buffer);
      this.buffer = new Uint8Array(this.buffer.byteLength);
      this.used = 0;
    }
    this.buffer[this.used++] = byte;
  }
}

const ADLER_MOD = 65_521;

/** Adler-32 of `bytes`. */
function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % ADLER_MOD;
    b = (b + a) % ADLER_MOD;
  }
  return ((b << 16) | a) >>> 0;
}

/** Adler-32 of two pieces joined, from each piece's checksum and the second's length (zlib's adler32_combine). */
function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_MOD;
  const a1 = first & 0xffff;
  const b1 = first >>> 16;
  const a = (a1 + (second & 0xffff) + ADLER_MOD - 1) % ADLER_MOD;
  const b = ((rem * a1) % ADLER_MOD + b1 + (second >>> 16) + ADLER_MOD - rem) % ADLER_MOD;
  return ((b << 16) | a) >>> 0;
}

/** Adler-32 of `unit` repeated to `size` bytes, by doubling: no need to make the bytes. */
function adler32Repeated(unit: Uint8Array, size: number): number {
  const whole = Math.floor(size / unit.byteLength);
  let result = 1; // the checksum of nothing
  let power = adler32(unit);
  let powerLength = unit.byteLength;
  for (let count = whole; count > 0; count = Math.floor(count / 2)) {
    if (count % 2 === 1) result = adler32Combine(result, power, powerLength);
    power = adler32Combine(power, power, powerLength);
    powerLength *= 2;
  }
  const tail = unit.subarray(0, size - whole * unit.byteLength);
  return adler32Combine(result, adler32(tail), tail.byteLength);
}

/**
 * A one-page PDF whose content stream is `unit` repeated to `inflatedBytes` bytes, compressed as
 * deflateRepeated does: a compression bomb. `unit` is ' ' for whitespace, or a text operator such
 * as 'BT /F1 12 Tf 72 720 Td (x) Tj ET\n' for millions of operators.
 */
export function bombPdf(unit: string, inflatedBytes: number, lines: readonly string[] = []): Uint8Array {
  const bomb = deflateRepeated(latin1(unit), inflatedBytes);
  return buildPdf({ pages: [{ lines }, { content: bomb, filter: '/FlateDecode' }] });
}
