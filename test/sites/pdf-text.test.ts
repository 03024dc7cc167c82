import { unzlibSync, zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MAX_PDF_BYTES, readPdfText, type PdfText } from '../../src/sites/pdf-text.ts';
import { SOURCE_TITLE_MAX_CHARS } from '../../src/oms/object-types.ts';
import { bombPdf, buildPdf, deflateRepeated, multiPagePdf, pdfString, randomBytes, textPdf, truncated } from '../helpers/pdf-files.ts';

const PRICE = 'The Fleet plan costs $1,450 per robot per month.';
const OPERATOR = 'BT /F1 12 Tf 72 720 Td (x) Tj ET\n';

function read(result: PdfText): Extract<PdfText, { ok: true }> {
  if (!result.ok) throw new Error(`expected a read, got: ${result.reason}`);
  return result;
}

function reason(result: PdfText): string {
  if (result.ok) throw new Error(`expected a refusal, got text: ${result.text.slice(0, 100)}`);
  return result.reason;
}

/** `count` pages, each with a heading and lines numbered by page. */
function pagesOf(count: number, lines = 3): string[][] {
  return Array.from({ length: count }, (_, page) => [`Page ${page + 1}`, '', ...Array.from({ length: lines }, (_, line) => `Line ${line + 1} of page ${page + 1}.`)]);
}

describe('the test PDFs (test/helpers/pdf-files.ts)', () => {
  it('escapes parentheses and backslashes in strings, and writes WinAnsi characters as octal', () => {
    expect(pdfString('a (b) \\ €é')).toBe('(a \\(b\\) \\\\ \\200\\351)');
  });

  it('writes an xref table whose offsets point at each object', () => {
    const pdf = textPdf([PRICE]);
    const text = new TextDecoder('latin1').decode(pdf);
    const xref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, index) => expect(text.slice(offset)).toMatch(new RegExp(`^${index + 1} 0 obj`)));
  });

  it('deflateRepeated writes a zlib stream of the unit repeated, with the checksum zlib computes', () => {
    const unit = new TextEncoder().encode(OPERATOR);
    const size = 100_003;
    const expected = new Uint8Array(size).map((_, i) => unit[i % unit.byteLength]!);
    const stream = deflateRepeated(unit, size);
    expect(unzlibSync(stream)).toEqual(expected);
    expect(stream.subarray(-4)).toEqual(zlibSync(expected).subarray(-4));
  });

  it('deflateRepeated makes hundreds of MiB from under 2 MB', () => {
    expect(deflateRepeated(new Uint8Array([0x20]), 256 * 1024 * 1024).byteLength).toBeLessThan(2_000_000);
  });
});

describe('readPdfText: text', () => {
  it('gives back a price sentence written in the PDF verbatim', async () => {
    const result = read(await readPdfText(textPdf(['Pricing', '', PRICE])));
    expect(result.text).toContain(PRICE);
    expect(result).toMatchObject({ pages: 1, pagesRead: 1, truncated: false });
  });

  it('separates paragraphs with a blank line and joins the lines of one paragraph', async () => {
    const result = read(await readPdfText(textPdf(['Pricing', '', 'The Fleet plan costs $1,450 per robot', 'per month, billed yearly.'])));
    expect(result.text).toBe('Pricing\n\nThe Fleet plan costs $1,450 per robot per month, billed yearly.');
  });

  it('starts a paragraph at each bullet', async () => {
    const result = read(await readPdfText(textPdf(['Included:', '• 24/7 support', '• Fleet dashboard'])));
    expect(result.text).toBe('Included:\n\n• 24/7 support\n\n• Fleet dashboard');
  });

  it('reads escaped parentheses and backslashes, and characters beyond ASCII', async () => {
    const result = read(await readPdfText(textPdf(['Preis (netto): 1.450 € \\ Roboter, Gebühr inklusive.'])));
    expect(result.text).toBe('Preis (netto): 1.450 € \\ Roboter, Gebühr inklusive.');
  });

  it('collapses runs of whitespace', async () => {
    const result = read(await readPdfText(textPdf(['Fleet     plan \t  costs'])));
    expect(result.text).toBe('Fleet plan costs');
  });

  it('leaves no control characters in the text', async () => {
    const controls = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');
    const result = read(await readPdfText(textPdf([`Fleet${controls}plan`])));
    // eslint-disable-next-line no-control-regex
    expect(result.text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(result.text).toMatch(/^Fleet.*plan$/);
  });

  it('reads a Flate-compressed content stream', async () => {
    const result = read(await readPdfText(buildPdf({ pages: [{ lines: ['Pricing', '', PRICE], compress: true }] })));
    expect(result.text).toBe(`Pricing\n\n${PRICE}`);
  });

  it('reads every page in order, a page break ending a paragraph', async () => {
    const result = read(await readPdfText(multiPagePdf([['Page one ends here'], ['Page two starts here']])));
    expect(result).toMatchObject({ text: 'Page one ends here\n\nPage two starts here', pages: 2, pagesRead: 2, truncated: false });
    expect(result.stoppedBy).toBeUndefined();
  });

  it('gives empty text for pages without text', async () => {
    expect(read(await readPdfText(buildPdf({ pages: [{ lines: [] }] })))).toMatchObject({ text: '', pages: 1, pagesRead: 1 });
  });

  it('leaves the bytes it was given as they were', async () => {
    const pdf = textPdf([PRICE]);
    const copy = pdf.slice();
    await readPdfText(pdf);
    expect(pdf).toEqual(copy);
  });
});

describe('readPdfText: title and date', () => {
  it('reads the Title and the CreationDate of the information dictionary', async () => {
    const result = read(await readPdfText(textPdf([PRICE], { info: { Title: '  Fleet   price sheet ', CreationDate: "D:20250314093000+01'00'", ModDate: 'D:20250601' } })));
    expect(result).toMatchObject({ title: 'Fleet price sheet', publishedAt: '2025-03-14' });
  });

  it('falls back to ModDate when CreationDate is not a date', async () => {
    const result = read(await readPdfText(textPdf([PRICE], { info: { CreationDate: 'yesterday', ModDate: 'D:20240229120000Z' } })));
    expect(result.publishedAt).toBe('2024-02-29');
  });

  it('leaves out dates that are not on the calendar, and an empty title', async () => {
    const result = read(await readPdfText(textPdf([PRICE], { info: { Title: '   ', CreationDate: 'D:20230230', ModDate: 'D:18991231' } })));
    expect(result.title).toBeUndefined();
    expect(result.publishedAt).toBeUndefined();
  });

  it('bounds the title', async () => {
    const result = read(await readPdfText(textPdf([PRICE], { info: { Title: 'Fleet '.repeat(2_000) } })));
    expect(result.title!.length).toBeLessThanOrEqual(SOURCE_TITLE_MAX_CHARS);
    expect(result.title).toMatch(/^Fleet Fleet/);
  });

  it('has neither when the document names none', async () => {
    const result = read(await readPdfText(textPdf([PRICE])));
    expect('title' in result || 'publishedAt' in result).toBe(false);
  });
});

describe('readPdfText: files it refuses', () => {
  it('refuses a file over 10 MiB before reading it', async () => {
    const big = new Uint8Array(MAX_PDF_BYTES + 1);
    big.set(textPdf([PRICE]));
    expect(reason(await readPdfText(big))).toMatch(/larger than 10 MiB/);
  });

  it('refuses a file without a %PDF- header (an HTML page)', async () => {
    const html = new TextEncoder().encode('<!doctype html><title>Pricing</title><p>The Fleet plan costs $1,450.</p>');
    expect(reason(await readPdfText(html))).toMatch(/^not a PDF/);
  });

  it('refuses random bytes as not a PDF', async () => {
    expect(reason(await readPdfText(randomBytes(64 * 1024, 3)))).toMatch(/^not a PDF/);
  });

  it('refuses an empty file', async () => {
    expect(reason(await readPdfText(new Uint8Array(0)))).toMatch(/^not a PDF/);
  });

  it('refuses random bytes after a PDF header as malformed', async () => {
    const bytes = new Uint8Array(64 * 1024);
    bytes.set(randomBytes(bytes.byteLength, 5));
    bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
    expect(reason(await readPdfText(bytes))).toMatch(/malformed|could not be (opened|read)/);
  });

  it('refuses a file cut short after its header', async () => {
    expect(reason(await readPdfText(truncated(textPdf([PRICE]), 40)))).toMatch(/malformed|could not be (opened|read)/);
  });

  it('refuses a file cut short in the middle of its objects', async () => {
    const pdf = multiPagePdf([[PRICE], ['Second page']]);
    expect(reason(await readPdfText(truncated(pdf, Math.floor(pdf.byteLength * 0.75))))).toMatch(/malformed or cut short/);
  });

  it('refuses an encrypted PDF that needs a password, naming it', async () => {
    expect(reason(await readPdfText(textPdf([PRICE], { encrypted: true })))).toMatch(/encrypted.*password/);
  });
});

describe('readPdfText: bounds', () => {
  it('reads at most maxPages pages', async () => {
    const result = read(await readPdfText(multiPagePdf(pagesOf(5)), { maxPages: 2 }));
    expect(result).toMatchObject({ pages: 5, pagesRead: 2, truncated: false, stoppedBy: 'maxPages' });
    expect(result.text).toContain('Line 3 of page 2.');
    expect(result.text).not.toContain('page 3');
  });

  it('reads 100 pages by default', async () => {
    const result = read(await readPdfText(multiPagePdf(pagesOf(101, 1))));
    expect(result).toMatchObject({ pages: 101, pagesRead: 100, stoppedBy: 'maxPages' });
  });

  it('cuts the text at a paragraph break at maxChars, and says so', async () => {
    const result = read(await readPdfText(multiPagePdf(pagesOf(4)), { maxChars: 100 }));
    expect(result.text.length).toBeLessThanOrEqual(100);
    expect(result.text).toMatch(/^Page 1\n\nLine 1 of page 1\./);
    expect(result.text.endsWith('.') || /Page \d$/.test(result.text)).toBe(true);
    expect(result).toMatchObject({ truncated: true, stoppedBy: 'maxChars' });
    expect(result.pagesRead).toBeLessThan(4);
  });

  it('stops at the deadline, keeping what was read', async () => {
    let calls = 0;
    // A clock that moves a second each time it is read: the deadline passes part way through.
    const result = read(await readPdfText(multiPagePdf(pagesOf(20)), { deadlineMs: 5_000, now: () => 1_000 * calls++ }));
    expect(result.stoppedBy).toBe('deadline');
    expect(result.pagesRead).toBeGreaterThan(0);
    expect(result.pagesRead).toBeLessThan(20);
    expect(result.text).toMatch(/^Page 1\n\n/);
  });

  it('stops within the first page when the deadline is 0', async () => {
    const result = read(await readPdfText(multiPagePdf(pagesOf(3)), { deadlineMs: 0 }));
    expect(result).toMatchObject({ pagesRead: 0, pages: 3, stoppedBy: 'deadline' });
  });

  it('refuses a stream that inflates to hundreds of MiB of whitespace (a compression bomb)', async () => {
    const bomb = bombPdf(' ', 256 * 1024 * 1024, [PRICE]);
    expect(bomb.byteLength).toBeLessThan(2_000_000);
    expect(reason(await readPdfText(bomb))).toMatch(/compression bomb/);
  });

  it('refuses a stream that inflates to millions of text operators', async () => {
    expect(reason(await readPdfText(bombPdf(OPERATOR, 256 * 1024 * 1024, [PRICE])))).toMatch(/compression bomb/);
  });

  it('refuses a bomb wrapped in two layers of Flate', async () => {
    const inner = deflateRepeated(new Uint8Array([0x20]), 64 * 1024 * 1024);
    const pdf = buildPdf({ pages: [{ content: zlibSync(inner), filter: '[/FlateDecode /FlateDecode]' }] });
    expect(reason(await readPdfText(pdf))).toMatch(/compression bomb/);
  });

  it('refuses many streams that inflate to too much together', async () => {
    const stream = deflateRepeated(new Uint8Array([0x20]), 15 * 1024 * 1024);
    const pdf = buildPdf({ pages: Array.from({ length: 9 }, () => ({ content: stream, filter: '/FlateDecode' })) });
    expect(reason(await readPdfText(pdf))).toMatch(/in all/);
  });

  it('stops a page of text operators within its bound at maxChars', async () => {
    // 4 MiB of operators (about 127,000 one-character pieces), under the inflation bound.
    const result = read(await readPdfText(bombPdf(OPERATOR, 4 * 1024 * 1024, [PRICE]), { maxChars: 1_000 }));
    expect(result).toMatchObject({ pages: 2, pagesRead: 1, truncated: true, stoppedBy: 'maxChars' });
    expect(result.text.length).toBeLessThanOrEqual(1_000);
    expect(result.text).toMatch(new RegExp(`^${PRICE.replace(/[$.]/g, '\\$&')}`));
  });
});
