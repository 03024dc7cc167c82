/**
 * The readable text of a web page, for a `source` object: its title and its content as lines of
 * plain text, extracted with Workers' own streaming `HTMLRewriter` (lol-html) and one pass over
 * what it leaves (extractPageText). No DOM is built, so a page costs time and memory in proportion
 * to its size, which the fetch bounds (fetch-source.ts).
 *
 * - Dropped whole, with everything inside: `script`, `style`, `noscript`, `template`, `svg`, `math`,
 *   `nav`, `iframe`, `object`, `canvas`, `select`, `datalist`, `button`, `textarea` (and the other
 *   elements whose content is not markup), and any element marked `hidden` or `aria-hidden="true"`.
 *   Comments are dropped too.
 * - Every block (headings, paragraphs, list items, table rows, `div`, `br`, ...) becomes its own line,
 *   and lines are separated by a blank line, so a heading never runs into the paragraph after it and
 *   passages split between blocks (src/research/text.ts ends a sentence at a blank line). Table cells
 *   on one row are joined by a space.
 * - Character references are decoded (`&amp;`, `&#8364;`, `&#x20AC;`, the common named ones);
 *   whitespace runs collapse to one space; control and zero-width characters are removed.
 * - The title is the document's `<title>`, else `og:title`, else the first `h1`. The publication
 *   date is read from `article:published_time`, `datePublished` or `date` meta tags when one holds
 *   an ISO 8601 date.
 */

export interface PageText {
  /** The page title, decoded and collapsed; undefined when the page names none. */
  title?: string;
  /** Lines of readable text separated by blank lines; empty when the page has none. */
  text: string;
  /** YYYY-MM-DD from the page's publication meta tags, when one holds a valid date. */
  publishedAt?: string;
}

// Also the elements whose content HTML does not parse as markup (textarea, xmp, noembed, noframes,
// plaintext), so that what is left holds no `<` that is text inside an element.
const DROPPED = [
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'nav', 'iframe', 'object', 'canvas', 'select', 'datalist', 'button',
  'textarea', 'xmp', 'noembed', 'noframes', 'plaintext',
];

const DROPPED_SELECTOR = [...DROPPED, '[hidden]', '[aria-hidden="true"]'].join(', ');

/** Elements whose start and end break a line (td and th: a space). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html',
  'legend', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'tfoot', 'thead', 'tr', 'ul',
]);

const DATE_META = [
  'meta[property="article:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[name="datePublished"]',
  'meta[name="date"]',
  'meta[name="dc.date"]',
  'meta[name="DC.date"]',
];

/**
 * The most dropped elements (and title and meta tags) one page may have. Each is a call from the
 * parser into JavaScript, so this bounds the CPU a page can cost; ordinary pages have hundreds.
 */
export const MAX_DROPPED_ELEMENTS = 20_000;

/** A page the extractor will not read: too many elements to drop, or markup the parser gives up on. */
export class PageUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageUnreadable';
  }
}

const TOO_COMPLEX = `the page has too much markup to read (over ${MAX_DROPPED_ELEMENTS.toLocaleString('en-US')} scripts, styles and other elements to leave out)`;

/**
 * Extracts the title, readable text and publication date of an HTML document (already decoded to a
 * string). HTMLRewriter does the part that needs an HTML parser: it removes the dropped elements
 * with everything inside them (natively: one call per dropped element, none for their content, so
 * a `</p>` in a script string or a tag in a comment never counts) and reads the title and meta
 * tags. What is left is text and the tags of ordinary elements, which become line breaks (blocks),
 * spaces (cells) or nothing, in one pass over the string: a page costs the same whether it has ten
 * tags or a hundred thousand. Throws PageUnreadable past MAX_DROPPED_ELEMENTS, or when the parser
 * gives up on the markup.
 */
export async function extractPageText(html: string): Promise<PageText> {
  let calls = 0;
  const count = () => {
    if (++calls > MAX_DROPPED_ELEMENTS) throw new PageUnreadable(TOO_COMPLEX);
  };
  let svgDepth = 0;
  // The first <title> outside an svg; its text arrives in chunks, entities still encoded.
  let titleState: 'none' | 'open' | 'done' = 'none';
  let titleText = '';
  let ogTitle: string | undefined;
  let publishedAt: string | undefined;

  let readable: string;
  try {
    readable = await new HTMLRewriter()
      .on(DROPPED_SELECTOR, {
        element(element) {
          count();
          element.remove();
          // Handlers still run inside a removed element: an svg's <title> is not the page's.
          if (element.tagName === 'svg' && whenEnded(element, () => svgDepth--)) svgDepth++;
        },
      })
      .on('title', {
        element(element) {
          count();
          element.remove();
          if (titleState === 'open') titleState = 'done';
          else if (titleState === 'none' && svgDepth === 0) titleState = 'open';
        },
        text(chunk) {
          if (titleState === 'open') titleText += chunk.text;
        },
      })
      .on('meta[property="og:title"]', {
        element(element) {
          count();
          ogTitle ??= clean(element.getAttribute('content') ?? '') || undefined;
        },
      })
      .on(DATE_META.join(', '), {
        element(element) {
          count();
          publishedAt ??= isoDate(element.getAttribute('content'));
        },
      })
      .transform(new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }))
      .text();
  } catch (error) {
    // A handler's exception reaches the caller through the rewriter's stream, as the same object or a copy of its message.
    if (error instanceof PageUnreadable || String(error).includes(TOO_COMPLEX)) throw new PageUnreadable(TOO_COMPLEX);
    // lol-html's own limits (e.g. "Parser error: The memory limit has been exceeded." for 400,000 unclosed tags).
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith('Parser error')) throw new PageUnreadable(`the page could not be read as HTML (${message.slice(0, 200)})`);
    throw error;
  }

  // One pass over what is left: block tags become line breaks, cells spaces, other markup nothing.
  // The first h1's content is found on the way (a fallback title).
  let h1Start: number | undefined;
  let h1End: number | undefined;
  const text = readable
    .replace(MARKUP, (match: string, name: string | undefined, offset: number) => {
      const tag = name?.toLowerCase();
      if (tag === 'h1') {
        if (match[1] !== '/') h1Start ??= offset + match.length;
        else if (h1Start !== undefined) h1End ??= offset;
      }
      return tag && BLOCKS.has(tag) ? '\n\n' : tag === 'td' || tag === 'th' ? ' ' : '';
    })
    .split('\n\n')
    .map(clean)
    .filter(Boolean)
    .join('\n\n');
  const firstH1 = h1Start !== undefined && h1End !== undefined && h1End - h1Start <= 2_000 ? readable.slice(h1Start, h1End) : undefined;
  const heading = (clean(titleText) || undefined) ?? ogTitle ?? (firstH1 ? clean(firstH1.replace(MARKUP, '')) || undefined : undefined);
  return { ...(heading ? { title: heading } : {}), text, ...(publishedAt ? { publishedAt } : {}) };
}

/**
 * Markup left once the dropped elements are gone: comments, doctypes and other `<!...>`, processing
 * instructions, and start and end tags (attribute values in quotes may hold `>`), the tag name
 * captured. A `<` that starts none of these is text, as in HTML. Every branch that starts matches
 * (what is left open runs to the end, as a browser reads it), so nothing is scanned twice: the pass
 * is linear in the page's length whatever the page holds.
 */
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<![^>]*(?:>|$)|<\?[^>]*(?:>|$)|<\/?([a-zA-Z][^\s/>]*)(?:"[^"]*(?:"|$)|'[^']*(?:'|$)|[^'">])*(?:>|$)/g;

/** Runs `onEnd` when the element ends (its end tag, or an ancestor's); false for a void element, which has no end. */
function whenEnded(element: Element, onEnd: () => void): boolean {
  try {
    element.onEndTag(onEnd);
    return true;
  } catch {
    return false;
  }
}

// Controls (but tab and line breaks, which collapse as whitespace), soft hyphens, zero-width
// characters and byte-order marks: invisible in a browser, noise in a quote.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** Decoded, invisible characters removed, whitespace collapsed, trimmed. */
export function clean(raw: string): string {
  return decodeEntities(raw).replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;

/** YYYY-MM-DD when `value` starts with a real calendar date, else undefined. */
function isoDate(value: string | null): string | undefined {
  const match = value ? ISO_DATE.exec(value.trim()) : null;
  if (!match) return undefined;
  const [, y, m, d] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  const text = `${y}-${m}-${d}`;
  return date.toISOString().slice(0, 10) === text && Number(y) >= 1900 ? text : undefined;
}

/** Named character references decoded; others (there are over 2,000) are left as written. */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  ndash: '\u2013', mdash: '\u2014', minus: '\u2212', hellip: '\u2026', bull: '\u2022', middot: '\u00b7',
  lsquo: '\u2018', rsquo: '\u2019', sbquo: '\u201a', ldquo: '\u201c', rdquo: '\u201d', bdquo: '\u201e', laquo: '\u00ab', raquo: '\u00bb',
  lsaquo: '\u2039', rsaquo: '\u203a', prime: '\u2032', Prime: '\u2033',
  copy: '\u00a9', reg: '\u00ae', trade: '\u2122', deg: '\u00b0', plusmn: '\u00b1', times: '\u00d7', divide: '\u00f7',
  euro: '\u20ac', pound: '\u00a3', yen: '\u00a5', cent: '\u00a2', curren: '\u00a4', sect: '\u00a7', para: '\u00b6', dagger: '\u2020',
  frac14: '\u00bc', frac12: '\u00bd', frac34: '\u00be', sup1: '\u00b9', sup2: '\u00b2', sup3: '\u00b3', micro: '\u00b5', permil: '\u2030',
  larr: '\u2190', rarr: '\u2192', uarr: '\u2191', darr: '\u2193', harr: '\u2194', check: '\u2713', star: '\u2606',
  iexcl: '\u00a1', iquest: '\u00bf', shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', lrm: '\u200e', rlm: '\u200f',
  Agrave: 'À', Aacute: 'Á', Acirc: 'Â', Atilde: 'Ã', Auml: 'Ä', Aring: 'Å', AElig: 'Æ', Ccedil: 'Ç', Egrave: 'È', Eacute: 'É',
  Ecirc: 'Ê', Euml: 'Ë', Igrave: 'Ì', Iacute: 'Í', Icirc: 'Î', Iuml: 'Ï', Ntilde: 'Ñ', Ograve: 'Ò', Oacute: 'Ó', Ocirc: 'Ô',
  Otilde: 'Õ', Ouml: 'Ö', Oslash: 'Ø', Ugrave: 'Ù', Uacute: 'Ú', Ucirc: 'Û', Uuml: 'Ü', Yacute: 'Ý', szlig: 'ß',
  agrave: 'à', aacute: 'á', acirc: 'â', atilde: 'ã', auml: 'ä', aring: 'å', aelig: 'æ', ccedil: 'ç', egrave: 'è', eacute: 'é',
  ecirc: 'ê', euml: 'ë', igrave: 'ì', iacute: 'í', icirc: 'î', iuml: 'ï', ntilde: 'ñ', ograve: 'ò', oacute: 'ó', ocirc: 'ô',
  otilde: 'õ', ouml: 'ö', oslash: 'ø', ugrave: 'ù', uacute: 'ú', ucirc: 'û', uuml: 'ü', yacute: 'ý', yuml: 'ÿ',
  OElig: 'Œ', oelig: 'œ', Scaron: 'Š', scaron: 'š', Zcaron: 'Ž', zcaron: 'ž',
};

/** What HTML makes of numeric references 0x80-0x9F (windows-1252), per the HTML standard. */
const WINDOWS_1252: Record<number, number> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02c6, 0x89: 0x2030,
  0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022,
  0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc, 0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a, 0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

const REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));?/g;

/**
 * Decodes character references: decimal and hex (a semicolon optional, as browsers read them; 0,
 * surrogates and values past U+10FFFF become U+FFFD) and the named ones in NAMED (with their
 * semicolon). Anything else is left as written.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (match, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) {
      const value = match.endsWith(';') ? NAMED[name] : undefined;
      return value ?? match;
    }
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    const mapped = WINDOWS_1252[code] ?? code;
    if (mapped === 0 || mapped > 0x10ffff || (mapped >= 0xd800 && mapped <= 0xdfff)) return '\ufffd';
    return String.fromCodePoint(mapped);
  });
}
