/** CommonMark's ASCII punctuation: what a backslash escapes. */
const ASCII_PUNCTUATION = String.raw`!-\/:-@\[-\x60{-~`;

/**
 * What a reader of the rendered markdown sees of `escapeInline` output (src/research/markdown-escape.ts;
 * its inverse, up to the collapsed whitespace); for `escapeCell` output, un-escape `\|` first.
 */
export function plainText(escaped: string): string {
  return escaped.replace(new RegExp(String.raw`\\([${ASCII_PUNCTUATION}])|&(amp|lt);`, 'g'), (_, char: string | undefined, entity: string | undefined) =>
    char ?? (entity === 'amp' ? '&' : '<'),
  );
}
