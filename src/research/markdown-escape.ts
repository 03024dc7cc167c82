import { percentEncode } from '../ground/encoding.ts';

/**
 * Untrusted text (sources' sentences and titles, company names, topics) made inert in our markdown.
 * Only what markdown or HTML would interpret is escaped, so quotes stay verbatim and readable:
 * - line breaks and other control characters collapse to one space (no heading, list or table
 *   can start inside a quote);
 * - `[` and `]` are escaped (no link, image, reference definition or forged `[n]` citation);
 * - `<` before a letter, `/`, `!` or `?` becomes `&lt;` (no raw HTML, comment or `<scheme:...>` autolink);
 * - `&` that starts an entity becomes `&amp;` (the text shows as written);
 * - a backslash before punctuation is doubled (it cannot undo an escape);
 * - a block marker at the very start (`# `, `>`, `- `, `* `, `+ `, `---`, a fence, `1. `) is escaped.
 * Emphasis characters elsewhere are left alone: they can only change a quote's style.
 * Tests read the output back with test/helpers/markdown-text.ts `plainText`, its exact inverse.
 */

const ASCII_PUNCTUATION = String.raw`!-\/:-@\[-\x60{-~`;
const LINE_BREAKS = /\s*[\p{Cc}\p{Zl}\p{Zp}][\s\p{Cc}\p{Zl}\p{Zp}]*/gu;
const INLINE = new RegExp(String.raw`\\(?=[${ASCII_PUNCTUATION}])|[\[\]]|<(?=[A-Za-z\/!?])|&(?=#?[A-Za-z0-9]+;)`, 'g');
// What starts a block at the start of a list item: a heading, quote, list item, rule, fence or numbered item.
const LEADING_MARKER = /^(?:#{1,6}(?=\s|$)|>|[-+*](?=\s|$)|[-*_](?=(?:\s*[-*_]){2})|`{3}|~{3}|\d{1,9}(?=[.)](?:\s|$)))/;

/** One line of inert inline markdown from untrusted text (see the module comment). */
export function escapeInline(text: string): string {
  const escaped = text
    .replace(LINE_BREAKS, ' ')
    .trim()
    .replace(INLINE, (c) => (c === '<' ? '&lt;' : c === '&' ? '&amp;' : `\\${c}`));
  return escaped.replace(LEADING_MARKER, (marker) => (/^\d/.test(marker) ? `${marker}\\` : `\\${marker}`));
}

/** `escapeInline` for a table cell: `|` is escaped too, so the text stays in its cell. */
export function escapeCell(text: string): string {
  return escapeInline(text).replace(/\|/g, '\\|');
}

/**
 * A URL that stays one plain URL in markdown: characters markdown reads around links (brackets,
 * parentheses, angle brackets, quotes, `|`, backslash, backtick, whitespace) are percent-encoded,
 * which leaves the address the same.
 */
export function escapeUrl(url: string): string {
  return url.replace(/[\[\]()<>"'|\\`\s\p{Cc}]/gu, percentEncode);
}
