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
 * - headings move down one level (`#` becomes h2), since the page's own title is the h1;
 * - with `citations` (briefs and competitor tables), each `[n]` the engine wrote becomes a link to
 *   source n of the report's own `## Sources` list (`[n] Title, domain, date, URL`, research/brief.ts
 *   `sourceLine`), opened in a new tab. Only markers markdown parsed as plain text are linked: text
 *   quoted from a source has its brackets escaped (research/markdown-escape.ts), so a source cannot
 *   forge a citation, and only http(s) URLs are linked.
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

/** What a render is given besides the text: the URL of each cited source by its number. */
type RenderEnv = {
  citations?: ReadonlyMap<string, string>;
};

/** A `[n]` marker in text markdown-it left as text (at most four digits: a report cites far fewer). */
const CITATION = /\[(\d{1,4})\]/g;
/** A line of a report's Sources list: `[n] ...`, its URL last (escaped, so without spaces). */
const SOURCE_LINE = /^\[(\d{1,4})\] .*, (https?:\/\/\S+)$/;

/** The URL of each source of the report's `## Sources` list (the last one), by its number. */
export function citedSources(markdown: string): Map<string, string> {
  const lines = markdown.split('\n');
  const start = lines.lastIndexOf('## Sources');
  const urls = new Map<string, string>();
  if (start === -1) return urls;
  for (const line of lines.slice(start + 1)) {
    const match = SOURCE_LINE.exec(line);
    if (match && !urls.has(match[1]!)) urls.set(match[1]!, match[2]!);
  }
  return urls;
}

// Before text_join: escaped brackets (`\[1\]` in quoted source text) are still text_special
// tokens apart from the text, so only the engine's own markers match.
md.core.ruler.before('text_join', 'citations', (state) => {
  const urls = (state.env as RenderEnv | undefined)?.citations;
  if (!urls?.size) return;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children: typeof block.children = [];
    let linkDepth = 0;
    for (const token of block.children) {
      if (token.type === 'link_open') linkDepth++;
      if (token.type === 'link_close') linkDepth--;
      if (token.type !== 'text' || linkDepth > 0) {
        children.push(token);
        continue;
      }
      let last = 0;
      const text = (content: string) => {
        if (!content) return;
        const piece = new state.Token('text', '', 0);
        piece.content = content;
        children.push(piece);
      };
      for (const match of token.content.matchAll(CITATION)) {
        const url = urls.get(match[1]!);
        const href = url ? md.normalizeLink(url) : '';
        if (!url || !md.validateLink(href)) continue;
        text(token.content.slice(last, match.index));
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [
          ['href', href],
          ['target', '_blank'],
        ];
        children.push(open);
        text(match[0]);
        children.push(new state.Token('link_close', 'a', -1));
        last = match.index + match[0].length;
      }
      if (last === 0) children.push(token);
      else text(token.content.slice(last));
    }
    block.children = children;
  }
});

export interface RenderOptions {
  /** Link each `[n]` to source n of the report's Sources list, in a new tab (see the module comment). */
  citations?: boolean;
}

/** The markdown as HTML to put in a page: no raw HTML, links only to http(s) and mailto. */
export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  const text = markdown.length > MAX_MARKDOWN_CHARS ? `${markdown.slice(0, MAX_MARKDOWN_CHARS)}\n\n_(cut off: the report is longer than this page shows)_` : markdown;
  const env: RenderEnv = options.citations ? { citations: citedSources(text) } : {};
  return md.render(text, env);
}
