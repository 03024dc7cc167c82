/** @jsxImportSource hono/jsx */
import type { FC } from 'hono/jsx';
import { renderMarkdown } from './markdown.ts';

/**
 * A brief or competitor table as the research and briefs pages show it: the markdown rendered
 * (markdown.ts, raw HTML off) with each `[n]` a link to its source, opened in a new tab.
 */
export const BriefArticle: FC<{ markdown: string; label: string }> = ({ markdown, label }) => (
  <article class="markdown" aria-label={label} dangerouslySetInnerHTML={{ __html: renderMarkdown(markdown, { citations: true }) }} />
);

/** The dashboard page of a stored brief. */
export function briefPath(key: string): string {
  return `/dashboard/briefs/${encodeURIComponent(key)}`;
}
