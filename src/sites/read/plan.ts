import { escapeInline } from '../../research/markdown-escape.ts';
import type { RunPlan, RunRecord } from '../../runs/types.ts';
import { nameCompany } from './company.ts';
import { discover } from './discover.ts';
import { readBoards, readFeeds } from './extras.ts';
import { readPages } from './pages.ts';
import { readArgs } from './state.ts';

/**
 * A site read (`site-read` runs): reads a company's public site and stores each page as a `source`,
 * in three steps of its RunObject:
 *
 *   discover  robots.txt (our group, else `*`), then its sitemaps (or /sitemap.xml), index files
 *             too: the home page and the sitemaps' URLs seed the frontier (src/sites/frontier.ts)
 *   pages     the frontier's best URL first, at most 2 requests in flight and at least
 *             max(SITE_READ_MIN_DELAY_MS, Crawl-delay) between two request starts; the links of
 *             each page read are offered back. Works in slices (one `advance` each) and keeps
 *             its state in the run's scratch space, so a restart resumes it
 *   company   the domain's `company` object, created or named from the site
 *
 * Each page request is conditional when the last read stored validators; a page with a body becomes
 * (or updates) its source exactly as an import would (provenance `site-read`, the run id, the URL),
 * and its D1 record (`site_pages`: validators, text hash, which run handled it) and the day's page
 * count commit in the same batch. A page this run already handled (found in its scratch space or,
 * after a restart, in `site_pages` under this run's id) is neither requested nor counted again.
 *
 * A restart in the middle of a slice (the object reset, the slice's error retried by the alarm)
 * resumes from the scratch space: each URL is written to it before its request leaves, so a page
 * that was in flight is counted once, as D1 recorded it or as interrupted, and never requested again
 * (its D1 count may have landed); the links each page queued are kept with its record and offered
 * again when the frontier's latest snapshot (every SNAPSHOT_EVERY_PAGES pages) predates them.
 * Requests are paced by the site's SiteHostGate (site-client.ts): at most 2 in flight and each start
 * a gap after the latest start or answer, across steps, slices, restarts and organizations.
 *
 * The files: state.ts (what the steps share and keep in scratch), site-client.ts (one request, paced),
 * discover.ts, pages.ts, company.ts (the steps), start.ts (starting reads: on request, on
 * onboarding, before a watch's research), and this one (the plan and its report).
 */


function render(run: RunRecord): string {
  const { domain, budget } = readArgs(run);
  const lines = [`# Site read of ${escapeInline(domain)}`, '', `Run ${run.id}, ${run.status}; page budget ${budget}.`, ''];
  for (const step of run.steps) {
    if (step.status === 'done' && step.output) {
      lines.push(`## ${STEP_TITLES[step.name as keyof typeof STEP_TITLES] ?? step.name}`, '', sentence(escapeInline(step.output.summary)), '', ...step.output.details, '');
    } else if (step.status === 'failed') {
      lines.push(`## ${STEP_TITLES[step.name as keyof typeof STEP_TITLES] ?? step.name}`, '', sentence(`Failed: ${escapeInline(step.error ?? 'unknown error')}`), '');
    } else if (run.status !== 'running') {
      lines.push(`## ${STEP_TITLES[step.name as keyof typeof STEP_TITLES] ?? step.name}`, '', `Not done (the run was ${run.status}${step.progress ? ` after ${escapeInline(step.progress)}` : ''}).`, '');
    }
  }
  if (run.status === 'completed') {
    lines.push(`The pages read are sources of your organization now: \`research\` cites them, and a later read of ${escapeInline(domain)} sends conditional requests.`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** `text` ending with one full stop. */
function sentence(text: string): string {
  return `${text.replace(/[.\s]+$/, '')}.`;
}

const STEP_TITLES = { discover: 'robots.txt and sitemaps', pages: 'Pages', feeds: 'Feeds', boards: 'Job boards', company: 'Company' } as const;

export const siteReadPlan: RunPlan = {
  kind: 'site-read',
  async executeStep(env, run, step, work) {
    switch (step) {
      case 'discover':
        return discover(env, run, work);
      case 'pages':
        return readPages(env, run, work);
      case 'feeds':
        return readFeeds(env, run, work);
      case 'boards':
        return readBoards(env, run, work);
      case 'company':
        return nameCompany(env, run, work);
      default:
        throw new Error(`unknown site-read step ${step}`);
    }
  },
  render,
};

