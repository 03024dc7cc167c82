/**
 * A company site that changes, shaped like the real web, for the test that a plain watch reports
 * what the company changed and nothing else (test/watches/web-changes.test.ts owns it):
 *
 * - `changing.example` 301s every path to `www.changing.example`;
 * - the pricing page names two plans, the annual price in a hidden tab panel;
 * - the careers page links a Greenhouse board (`boards-api.greenhouse.io`, board `changing`), and
 *   the changelog links its RSS feed: both pages never change (a re-read gets 304 for them), while
 *   the board and the feed do;
 * - and every page carries what changes on every load of a real site and is no news: a rotating
 *   customer quote, today's date and time, a visitor counter, a copyright year range, a CSRF token
 *   (a hidden input, and a request id in the text), a script with a cache-busting query.
 *
 * The test changes pages through the site's control paths (setSitePage), never here.
 */
import type { SitePage, SiteSpec } from '../../scripts/lib/site-types.ts';

export const CHANGING_DOMAIN = 'changing.example';
export const CHANGING_HOST = `www.${CHANGING_DOMAIN}`;
export const CHANGING_BOARD = 'changing';
export const CHANGING_BOARD_PATH = `/v1/boards/${CHANGING_BOARD}/jobs`;

const QUOTES = [
  '“Changing cut our reporting time in half.” — Dana Whitfield, VP Operations at Larkspur Freight',
  '“We rolled Changing out to 400 reps in a week.” — Omar Haddad, Head of Sales at Brightwater',
  '“The best onboarding we have had from a vendor.” — Mei Lin, COO at Quarry Labs',
];

let loads = 0;

/** What differs on every load and is no news. */
function rotating(): string {
  loads += 1;
  const now = new Date(Date.UTC(2026, 10, 27, 9, 0, 0) + loads * 3_600_000);
  const token = crypto.randomUUID().replace(/-/g, '');
  const date = now.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return `<aside><blockquote>${QUOTES[loads % QUOTES.length]}</blockquote>
    <p>${(1_200 + loads * 7).toLocaleString('en-US')} people are viewing this page right now.</p>
    <p>Last updated ${date} at ${now.toISOString().slice(11, 16)} UTC.</p>
    <form><input type="hidden" name="csrf" value="${token}"></form>
    <p>Request ID: ${token}</p></aside>
    <footer><p>© 2019-${2026 + (loads % 2)} Changing Inc. All rights reserved.</p></footer>
    <script src="/assets/app.js?v=${token.slice(0, 8)}"></script>`;
}

const NAV = '<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/careers">Careers</a> <a href="/changelog">Changelog</a></nav>';

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${NAV}<main><h1>${title}</h1>${body}</main>${rotating()}</body></html>`;
}

/** The pricing page: Starter at `starter` a month, Growth at `growth` per seat a month (and a hidden annual tab). */
export function changingPricing(starter = '$29', growth = '$49'): string {
  return page(
    'Changing pricing',
    `<div role="tablist"><button role="tab" aria-controls="monthly">Monthly</button><button role="tab" aria-controls="annual">Annual</button></div>
     <div role="tabpanel" id="monthly"><p>The Starter plan costs ${starter} per month for one user.</p><p>The Growth plan costs ${growth} per seat per month.</p></div>
     <div role="tabpanel" id="annual" hidden><p>Billed annually, the Growth plan costs $470 per seat per year.</p></div>
     <p>Every plan includes unlimited reports.</p>`,
  );
}

export interface ChangingEntry {
  slug: string;
  title: string;
  text: string;
}

export const CHANGELOG_ENTRIES: ChangingEntry[] = [
  { slug: 'changing-3-1', title: 'Changing 3.1: scheduled exports', text: 'Changing 3.1 schedules CSV exports every morning.' },
  { slug: 'changing-3-0', title: 'Changing 3.0: team dashboards', text: 'Changing 3.0 added dashboards for every team.' },
];

/** The changelog page and its RSS feed for `entries` (newest first). */
export function changingChangelog(entries: readonly ChangingEntry[]): { page: string; feed: string } {
  const items = entries
    .map((entry, i) => `<item><title>${entry.title}</title><link>https://${CHANGING_HOST}/changelog/${entry.slug}</link><pubDate>${new Date(Date.UTC(2026, 9, 30 - i)).toUTCString()}</pubDate><description>${entry.text}</description></item>`)
    .join('');
  return {
    page: page('Changing changelog', `<p>What is new in Changing.</p>`, '<link rel="alternate" type="application/rss+xml" title="Changelog" href="/changelog/rss.xml">'),
    feed: `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Changing changelog</title><link>https://${CHANGING_HOST}/changelog</link>${items}</channel></rss>`,
  };
}

export interface ChangingRole {
  id: number;
  title: string;
  location: string;
}

export const CHANGING_ROLES: ChangingRole[] = [
  { id: 501, title: 'Customer Success Manager', location: 'Austin' },
  { id: 502, title: 'Backend Engineer', location: 'Remote' },
];

/** The board's public JSON API answer (Greenhouse's documented shape) for `roles`. */
export function changingBoard(roles: readonly ChangingRole[]): string {
  return JSON.stringify({
    jobs: roles.map((role) => ({
      id: role.id,
      title: role.title,
      location: { name: role.location },
      absolute_url: `https://boards.greenhouse.io/${CHANGING_BOARD}/jobs/${role.id}`,
      updated_at: '2026-11-02T10:00:00-05:00',
      content: `&lt;p&gt;Changing is hiring a ${role.title} in ${role.location}.&lt;/p&gt;`,
      departments: [{ name: 'Team' }],
    })),
    meta: { total: roles.length },
  });
}

/** The board's page on the shared Greenhouse API host (fixtureSites adds it there). */
export function changingBoardPages(): Record<string, SitePage> {
  return { [CHANGING_BOARD_PATH]: { body: changingBoard(CHANGING_ROLES), type: 'application/json' } };
}

/** The apex and the www. host. */
export function changingSites(): Record<string, SiteSpec> {
  const changelog = changingChangelog(CHANGELOG_ENTRIES);
  // Made once: unchanged, these answer 304 to a re-read, so it learns their feed and board from earlier reads.
  const careers = page('Careers at Changing', `<p>Changing hires in Austin and remotely.</p><p><a href="https://boards.greenhouse.io/${CHANGING_BOARD}">Open roles</a></p>`);
  return {
    [CHANGING_DOMAIN]: { pages: {}, generate: (path) => ({ status: 301, location: `https://${CHANGING_HOST}${path}` }) },
    [CHANGING_HOST]: {
      robots: 'User-agent: *\nAllow: /\n',
      pages: {
        '/pricing': { body: changingPricing() },
        '/changelog/rss.xml': { body: changelog.feed, type: 'application/rss+xml' },
        '/assets/app.js': { body: '/* app */', type: 'text/javascript' },
      },
      // Generated on every request: their rotating parts differ on each load.
      generate: (path) => {
        if (path === '/') return { body: page('Changing', '<p>Changing builds reporting software for revenue teams.</p><p><a href="/pricing">See pricing</a></p>') };
        if (path === '/careers') return { body: careers };
        if (path === '/changelog') return { body: changelog.page };
        return undefined;
      },
    },
  };
}
