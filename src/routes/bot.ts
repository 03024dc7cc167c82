import { Hono } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { AppEnv } from '../env.ts';
import { readConfig } from '../ground/config.ts';
import { SOURCE_FETCH, SOURCE_USER_AGENT } from '../oms/fetch-source.ts';
import { DEFAULT_PAGE_BUDGET, MAX_PAGE_BUDGET } from '../sites/frontier.ts';
import { MAX_CRAWL_DELAY_SECONDS, SITE_REQUESTS_IN_FLIGHT } from '../sites/politeness.ts';
import { SITE_READER_PRODUCT_TOKEN } from '../sites/robots.ts';
import { BOT_PAGE_PATH, botPageUrl, siteReaderUserAgent } from '../sites/user-agent.ts';

/**
 * `GET /bot` (and `/bot.txt`, the same words as plain text): the public page a site's owner reaches
 * from ReconBot's user agent. No key, no session, no script; what it says is read from the settings
 * and bounds the reader runs by (page budget, requests in flight, delay, Crawl-delay cap, body and
 * time bounds), so it stays true when they change.
 */

/** The plain-text twin of the page. */
export const BOT_TEXT_PATH = `${BOT_PAGE_PATH}.txt`;

/** The snippet that keeps ReconBot off a whole site, as robots.txt takes it. */
export const OPT_OUT_SNIPPET = `User-agent: ${SITE_READER_PRODUCT_TOKEN}\nDisallow: /`;

/**
 * A paragraph, a list or a code block. Text between backticks is code (`<code>` on the page,
 * kept in backticks in the text).
 */
type Block = { text: string } | { list: readonly string[] } | { code: string };

interface Section {
  heading: string;
  blocks: readonly Block[];
}

/** What the page says, for this deployment and the request that asked. */
interface BotFacts {
  userAgent: string;
  minDelayMs: number;
  /** SITE_READ_CONTACT_URL, when it is another page than this one. */
  contactUrl?: string;
}

/** `ms` as a person reads it: `1 second`, `2.5 seconds`, `250 ms`. */
function duration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const seconds = ms / 1_000;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

function factsOf(env: Env, requestUrl: string): BotFacts {
  const config = readConfig(env);
  const here = botPageUrl({ SITE_READ_CONTACT_URL: undefined }, requestUrl);
  const contact = config.SITE_READ_CONTACT_URL;
  return {
    userAgent: siteReaderUserAgent(botPageUrl(config, requestUrl)),
    minDelayMs: config.SITE_READ_MIN_DELAY_MS,
    ...(contact && contact !== here ? { contactUrl: contact } : {}),
  };
}

function sections(facts: BotFacts): Section[] {
  const bodyMiB = SOURCE_FETCH.maxBodyBytes / 1024 / 1024;
  return [
    {
      heading: 'Who we are',
      blocks: [
        {
          text:
            'ReconBot reads the public web sites of companies for Recon, a research and audit service for go-to-market teams: ' +
            "what a company sells, to whom and at what price, so its customers' briefs can quote the company's own words. " +
            `Every request it sends carries the user agent \`${facts.userAgent}\`.`,
        },
        ...(facts.contactUrl ? [{ text: `More about this deployment and how to reach its operator: ${facts.contactUrl}` }] : []),
      ],
    },
    {
      heading: 'What it reads',
      blocks: [
        {
          list: [
            '`/robots.txt` first, before any other page of a site, and then only what it allows. When robots.txt cannot be read (a server error, 429 or no answer) nothing else is read; when there is none (404), the site is read as if it allowed everything, as RFC 9309 says.',
            "The site's sitemaps, its home page, and the pages those link to, on the company's own domain and its `www.` only.",
            'PDFs the pages link to (price sheets, datasheets), the RSS and Atom feeds the site offers, and the public job board its careers page links to.',
            `At most ${MAX_PAGE_BUDGET} pages in one read (${DEFAULT_PAGE_BUDGET} unless a customer asks for more); at most ${bodyMiB} MiB of a page and ${SOURCE_FETCH.timeoutMs / 1000} seconds for it, redirects included.`,
            'Public pages only: it sends no cookies, signs in nowhere and submits no forms.',
            "A page whose text only its scripts write may be loaded in a headless browser, with the same user agent and the same robots.txt rules: it then requests only that site's own documents, scripts and data, never images, fonts, styles or other sites.",
          ],
        },
      ],
    },
    {
      heading: 'How often',
      blocks: [
        {
          list: [
            "When an organization finishes setting up Recon: its own site and its competitors' sites.",
            'Before each execution of a watch a customer keeps on a company (at most once an hour per watch).',
            'When a customer asks for a read.',
            'A page read before is asked for again conditionally (`If-None-Match`, `If-Modified-Since`): when it has not changed, a `304 Not Modified` is all it costs you.',
            'A page is fetched once within a freshness window shared by all customers: a second customer reading the same site meanwhile gets the copy already read.',
          ],
        },
      ],
    },
    {
      heading: 'How gently',
      blocks: [
        {
          list: [
            `At most ${SITE_REQUESTS_IN_FLIGHT} requests in flight to a site at once, whichever customers it reads for.`,
            `${facts.minDelayMs > 0 ? `At least ${duration(facts.minDelayMs)}` : 'No pause of its own (this deployment sets none; Crawl-delay still applies)'} between the start of one request and the next, and after the previous answer.`,
            `\`Crawl-delay\` in robots.txt (in the \`${SITE_READER_PRODUCT_TOKEN}\` group, else \`*\`) is honoured when it is longer, up to ${MAX_CRAWL_DELAY_SECONDS} seconds.`,
            'A `429 Too Many Requests` or `503 Service Unavailable` is obeyed: the next request waits as long as its `Retry-After` asks, and after a few such answers in a row the read stops.',
          ],
        },
      ],
    },
    {
      heading: 'How to keep it out',
      blocks: [
        { text: 'To keep ReconBot off your whole site, add this to your `/robots.txt`:' },
        { code: OPT_OUT_SNIPPET },
        {
          text: `Any other rule works as well (\`Disallow: /private/\`), and so does \`Crawl-delay: 10\` in the same group to slow it down. Every read fetches robots.txt first, so a change applies from the next read.`,
        },
        { text: 'To keep one page out, say so on the page; ReconBot reads these for itself or for all robots:' },
        {
          list: [
            '`<meta name="robots" content="noindex">` or `<meta name="ReconBot" content="noindex">`, or the header `X-Robots-Tag: noindex` (also `X-Robots-Tag: ReconBot: noindex`): the page\'s text is not kept.',
            '`nofollow` in the same places: the links on the page are not followed.',
            '`none` means both.',
          ],
        },
      ],
    },
    {
      heading: 'Pages a person adds by hand',
      blocks: [
        {
          text: `A customer may also add one page by its address. That page is fetched once, at their request, with the user agent \`${SOURCE_USER_AGENT}\`, and no link on it is followed.`,
        },
      ],
    },
  ];
}

const TITLE = 'ReconBot, the site reader of Recon';

/** `text` with `code` spans as `<code>`, the rest escaped. */
function inline(text: string): HtmlEscapedString | Promise<HtmlEscapedString> {
  const parts = text.split('`').map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
  return html`${parts}`;
}

function blockHtml(block: Block) {
  if ('code' in block) return html`<pre><code>${block.code}</code></pre>`;
  if ('list' in block) return html`<ul>${block.list.map((item) => html`<li>${inline(item)}</li>`)}</ul>`;
  return html`<p>${inline(block.text)}</p>`;
}

/** The page: one `h1`, a section per heading, the text twin named as an alternate. */
function pageHtml(facts: BotFacts) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLE}</title>
<link rel="alternate" type="text/plain" href="${BOT_TEXT_PATH}">
</head>
<body>
<main>
<h1>${TITLE}</h1>
${sections(facts).map((section) => html`<section>
<h2>${section.heading}</h2>
${section.blocks.map(blockHtml)}
</section>
`)}<p>This page as plain text: <a href="${BOT_TEXT_PATH}">${BOT_TEXT_PATH}</a>.</p>
</main>
</body>
</html>
`;
}

/** The same words as plain text: headings underlined, list items with a dash, code indented. */
function botText(facts: BotFacts): string {
  const lines = [TITLE, '='.repeat(TITLE.length), ''];
  for (const section of sections(facts)) {
    lines.push(section.heading, '-'.repeat(section.heading.length), '');
    for (const block of section.blocks) {
      if ('code' in block) lines.push(...block.code.split('\n').map((line) => `    ${line}`), '');
      else if ('list' in block) lines.push(...block.list.map((item) => `- ${item}`), '');
      else lines.push(block.text, '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

// Nothing on the page loads anything: no script, style, image, frame or form.
const PAGE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const CACHE = 'public, max-age=3600';

/** The page and its text twin, mounted at the root of the app (`app.route('/', bot)`). */
export const bot = new Hono<AppEnv>()
  .get(BOT_PAGE_PATH, async (c) => {
    c.header('Content-Security-Policy', PAGE_POLICY);
    c.header('Cache-Control', CACHE);
    return c.html(await pageHtml(factsOf(c.env, c.req.url)));
  })
  .get(BOT_TEXT_PATH, (c) => {
    c.header('Cache-Control', CACHE);
    return c.text(botText(factsOf(c.env, c.req.url)));
  });
