import type { KnownCompany } from '../research/competitors.ts';
import { EVIDENCE_PASSAGES, EVIDENCE_WINDOW, gatherEvidence } from './evidence.ts';
import { renderReport } from './report.ts';
import type { Fix, RunPlan, RunRecord, StepOutput } from './types.ts';

/** The areas a gtm-audit scores, in report order (the `focus` argument picks among them). */
export const GTM_AUDIT_AREAS = ['positioning', 'icp', 'pricing', 'channels', 'competition', 'content'] as const;
export type GtmArea = (typeof GTM_AUDIT_AREAS)[number];

/** What each area looks for in the sources (search terms), and what to do when it is thin. */
export const AREAS: Record<GtmArea, { title: string; terms: string[]; advice: string }> = {
  positioning: {
    title: 'Positioning',
    terms: ['positioning', 'category', 'platform', 'leader', 'mission', 'tagline', 'value', 'helps', 'built', 'unlike'],
    advice: 'State who it is for, the category, and the one outcome it delivers, on the home page and in every launch',
  },
  icp: {
    title: 'Ideal customer profile',
    terms: ['customers', 'customer', 'industry', 'industries', 'teams', 'companies', 'segment', 'mid-market', 'enterprise', 'persona'],
    advice: 'Name the industries, company sizes and buyer roles it serves, with a customer example for each',
  },
  pricing: {
    title: 'Pricing',
    terms: ['pricing', 'price', 'prices', 'plan', 'plans', 'seat', 'month', 'trial', 'discount', 'tier'],
    advice: 'Publish plans with prices, what each includes, and how to try it',
  },
  channels: {
    title: 'Channels',
    terms: ['partner', 'partners', 'partnership', 'marketplace', 'integration', 'integrations', 'webinar', 'event', 'reseller', 'hiring'],
    advice: 'Show where buyers find it: partners, marketplaces, integrations, events and the sales team',
  },
  competition: {
    title: 'Competition',
    terms: ['alternative', 'alternatives', 'vs', 'versus', 'compared', 'competitor', 'competitors', 'switched', 'rival', 'instead'],
    advice: 'Publish honest comparison pages and switching stories against the main alternatives',
  },
  content: {
    title: 'Content',
    terms: ['blog', 'guide', 'report', 'webinar', 'case', 'study', 'whitepaper', 'announces', 'launch', 'podcast'],
    advice: 'Keep a steady flow of guides, case studies and announcements buyers can cite',
  },
};

const FINDINGS_PER_AREA = 3;
const RECENT_DAYS = 365;
const SPECIFIC = /(\$|€|£|\d)/;

/**
 * The documented scoring of one area (0-100), from the evidence in the knowledge base:
 * - coverage, up to 50: 10 points per distinct source that names the company and discusses the area (5 or more: 50);
 * - recency, up to 20: the share of those sources published in the last 365 days, times 20;
 * - specificity, up to 30: 10 points per quoted finding with a concrete number, price or percentage (3 or more: 30).
 */
export function scoreArea(sourceDates: (string | undefined)[], findings: string[], now: Date): { score: number; coverage: number; recent: number; specific: number } {
  const coverage = Math.min(sourceDates.length, 5) * 10;
  const cutoff = now.getTime() - RECENT_DAYS * 86_400_000;
  const recentCount = sourceDates.filter((d) => d && Date.parse(d) >= cutoff).length;
  const recent = sourceDates.length ? Math.round((20 * recentCount) / sourceDates.length) : 0;
  const specific = Math.min(findings.filter((f) => SPECIFIC.test(f)).length, 3) * 10;
  return { score: coverage + recent + specific, coverage, recent, specific };
}

function fixesFor(area: GtmArea, company: string, parts: ReturnType<typeof scoreArea>, sourceCount: number): Fix[] {
  const where = `${company}'s website and published content; then import the pages with POST /api/v1/oms/objects/import`;
  const fixes: Fix[] = [];
  if (sourceCount === 0) {
    fixes.push({ priority: 'high', action: `${AREAS[area].advice}: no source in the knowledge base discusses ${company}'s ${area}.`, where });
    return fixes;
  }
  if (parts.coverage < 30) fixes.push({ priority: 'high', action: `${AREAS[area].advice}: only ${sourceCount} source(s) discuss it.`, where });
  if (parts.recent < 10) fixes.push({ priority: 'medium', action: `Refresh ${area} material: most of it is over a year old.`, where });
  if (parts.specific < 20) fixes.push({ priority: 'medium', action: `Make ${area} claims concrete, with numbers, prices and named results.`, where });
  return fixes;
}

/** One gtm-audit step: the evidence, score and recommendations for one area. */
export async function assessArea(db: D1Database, organizationId: string, company: KnownCompany, area: GtmArea, now = new Date()): Promise<StepOutput> {
  const evidence = await gatherEvidence(db, organizationId, company, AREAS[area].terms, FINDINGS_PER_AREA);
  const parts = scoreArea(evidence.sources.map((s) => s.publishedAt), evidence.findings.map((f) => f.sentence), now);
  const label = company.name ?? company.key;
  return {
    score: parts.score,
    summary:
      evidence.sources.length === 0
        ? `No source discusses ${label}'s ${area}.`
        : `${evidence.sources.length} source(s); coverage ${parts.coverage}/50, recency ${parts.recent}/20, specificity ${parts.specific}/30.`,
    details: evidence.truncated
      ? [
          `- More than ${EVIDENCE_WINDOW} passages name ${label} and discuss ${area}: this area was assessed on the ${EVIDENCE_WINDOW} most recently imported, and its sources are those of the ${EVIDENCE_PASSAGES} most relevant among them.`,
        ]
      : [],
    findings: evidence.findings,
    sources: evidence.sources,
    fixes: fixesFor(area, label, parts, evidence.sources.length),
  };
}

/** The company a gtm-audit looks at, as stored in its run's arguments. */
export function runCompany(run: RunRecord): KnownCompany {
  const company = run.args.subject as KnownCompany | undefined;
  return company ?? { key: run.target };
}

export const gtmAuditPlan: RunPlan = {
  kind: 'gtm-audit',
  async executeStep(env, run, step) {
    return assessArea(env.DB, run.organizationId, runCompany(run), step as GtmArea);
  },
  render(run) {
    return renderReport(run, {
      title: `GTM audit: ${runCompany(run).name ?? run.target}`,
      stepTitle: (step) => AREAS[step as GtmArea]?.title ?? step,
      method:
        'Each area is scored 0-100 from the evidence in your knowledge base: coverage (10 points per source that names the company and discusses the area, up to 50), recency (share of those sources from the last 365 days, up to 20) and specificity (10 points per quoted finding with a number, price or percentage, up to 30).',
    });
  },
};
