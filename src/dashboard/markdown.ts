import MarkdownIt from 'markdown-it';

/**
 * Run reports and briefs as HTML for the dashboard, with markdown-it (CommonMark), safe by default.
 * The markdown quotes sources, so it is treated as untrusted even though the engines escape what
 * they quote (research/markdown-escape.ts):
 * - raw HTML is off (`html: false`): a `<script>` or `<img onerror>` in the text is shown as text;
 * - a link keeps its href only when it is http(s) or mailto (anything else, `javascript:`,
 *   `data:`, `vbscript:`, a relative or protocol-relative URL, is rendered as plain text), and
 *   every link gets `rel="noopener noreferrer nofollow"`;
 * - images are not rendered (no request leaves the page for a source's address; the CSP would
 *   refuse them anyway), only their alt text;
 * - headings move down one level (`#` becomes h2), since the page's own title is the h1.
 */

const ALLOWED_LINK = /^(?:https?:\/\/|mailto:)/i;

/** The longest markdown rendered (a run's report is far smaller); past it, the rest is cut off with a note. */
export const MAX_MARKDOWN_CHARS = 1_000_000;

const md = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false });
md.enable('table');

// markdown-it's own check refuses javascript:, vbscript:, file: and most data: URLs; ours is stricter.
md.validateLink = (url: string): boolean => ALLOWED_LINK.test(url.trim());

md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index]!;
  token.attrSet('rel', 'noopener noreferrer nofollow');
  return self.renderToken(tokens, index, options);
};

md.renderer.rules.image = (tokens, index, options, env, self) => md.utils.escapeHtml(self.renderInlineAsText(tokens[index]!.children ?? [], options, env));

for (const rule of ['heading_open', 'heading_close'] as const) {
  md.renderer.rules[rule] = (tokens, index, options, _env, self) => {
    const token = tokens[index]!;
    const level = Number(token.tag.slice(1));
    token.tag = `h${Math.min(level + 1, 6)}`;
    return self.renderToken(tokens, index, options);
  };
}

/** The markdown as HTML to put in a page: no raw HTML, links only to http(s) and mailto. */
export function renderMarkdown(markdown: string): string {
  const text = markdown.length > MAX_MARKDOWN_CHARS ? `${markdown.slice(0, MAX_MARKDOWN_CHARS)}\n\n_(cut off: the report is longer than this page shows)_` : markdown;
  return md.render(text);
}
