import { mentionFinder, type KnownCompany } from '../research/competitors.ts';
import type { Finding, ResearchSource } from '../research/provider.ts';
import { EVIDENCE_PASSAGES, EVIDENCE_WINDOW, gatherEvidence, OWN_BRIEF_TITLE } from './evidence.ts';
import { escapeInline } from '../research/markdown-escape.ts';
import { renderReport } from './report.ts';
import { AREA_TERMS, fileEvidence, GTM_AUDIT_AREAS, RECENT_DAYS, RUBRIC, rubricText, type GtmArea } from './rubric.ts';
import type { Fix, RunPlan, RunRecord, StepOutput } from './types.ts';
import type { Db } from '../ground/db-session.ts';

export { GTM_AUDIT_AREAS, type GtmArea } from './rubric.ts';

/** Each area's title and the words its evidence is searched by. */
export const AREAS: Record<GtmArea, { title: string; terms: string[] }> = Object.fromEntries(
  GTM_AUDIT_AREAS.map((area) => [area, { title: RUBRIC[area].title, terms: AREA_TERMS[area] }]),
) as Record<GtmArea, { title: string; terms: string[] }>;

/** Where a company's go-to-market content lives, per area: the page a fix names. */
const PAGES: Record<GtmArea, string> = {
  positioning: 'home page',
  icp: 'home and customer pages',
  pricing: 'pricing page',
  channels: 'partner and integration pages',
  competition: 'comparison pages',
  content: 'blog, newsroom and customer stories',
};

/**
 * Every area of a gtm-audit of `company`, from one reading of the evidence: each rubric point is
 * met when a sentence about the company meets its check (rubric.ts), and cited with it; a sentence
 * is filed under one area only. An area's score is the share of its points met (0-100); an area
 * where no point is met has no score ("no evidence found") and no advice: we know nothing there.
 * `now` is the run's start, so every step judges recency against the same date.
 */
export async function assessAreas(db: Db, organizationId: string, company: KnownCompany, now = new Date()): Promise<Record<GtmArea, StepOutput>> {
  // The name comes from imported data or the caller: inert in our markdown, like any source text.
  const label = escapeInline(company.name ?? company.key);
  const evidence = await gatherEvidence(db, organizationId, company, now);
  const mentionsOf = mentionFinder([company]);
  const filed = fileEvidence(evidence.candidates, { names: (text) => mentionsOf(text).length > 0 });
  const outputs = {} as Record<GtmArea, StepOutput>;
  for (const area of GTM_AUDIT_AREAS) {
    const sources: ResearchSource[] = [];
    const findings: Finding[] = [];
    const rubric: NonNullable<StepOutput['rubric']> = [];
    for (const { point, candidate } of filed[area]) {
      if (candidate === undefined) {
        rubric.push({ label: point.label, met: false });
        continue;
      }
      const { sentence, source } = evidence.candidates[candidate]!;
      let finding = findings.findIndex((f) => f.sentence === sentence);
      if (finding === -1) {
        let index = sources.findIndex((s) => s.url === source.url);
        if (index === -1) index = sources.push(source) - 1;
        finding = findings.push({ sentence, source: index }) - 1;
      }
      rubric.push({ label: point.label, met: true, finding });
    }
    const met = rubric.filter((r) => r.met).length;
    const total = rubric.length;
    const details = evidence.truncated.includes(area)
      ? [
          `- More than ${EVIDENCE_WINDOW} passages name ${label} and discuss ${area}: this area was assessed on the ${EVIDENCE_WINDOW} most recently imported, and its sources are those of the ${EVIDENCE_PASSAGES} most relevant among them.`,
        ]
      : [];
    if (met === 0) {
      outputs[area] = {
        score: null,
        summary:
          evidence.candidates.length === 0
            ? `No source in your knowledge base is about ${label}.`
            : `None of the ${evidence.candidates.length} sentences about ${label} in your sources meets a point of this area's rubric.`,
        details: [...details, `- To judge this area, add pages about ${label} (its own site, reviews, news) with POST /api/v1/oms/sources or POST /api/v1/oms/objects/import.`],
        findings: [],
        sources: [],
        fixes: [],
        rubric,
      };
      continue;
    }
    const fixes: Fix[] = filed[area]
      .filter((r) => r.candidate === undefined)
      .map(({ point }) => ({
        priority: point.priority,
        action: `Not found in your sources: ${point.label.charAt(0).toLowerCase()}${point.label.slice(1)}. ${point.advice}.`,
        where: `${label}'s ${PAGES[area]}; if it is already published, add that page with POST /api/v1/oms/sources so audits see it`,
      }));
    outputs[area] = {
      score: Math.round((100 * met) / total),
      summary: `${met} of ${total} rubric points met: ${rubric
        .filter((r) => r.met)
        .map((r) => r.label.charAt(0).toLowerCase() + r.label.slice(1))
        .join('; ')}.`,
      details,
      findings,
      sources,
      fixes,
      rubric,
    };
  }
  return outputs;
}

/** One gtm-audit step: the rubric, cited evidence, score and fixes of one area. */
export async function assessArea(db: Db, organizationId: string, company: KnownCompany, area: GtmArea, now = new Date()): Promise<StepOutput> {
  return (await assessAreas(db, organizationId, company, now))[area];
}

/** The company a gtm-audit looks at, as stored in its run's arguments. */
export function runCompany(run: RunRecord): KnownCompany {
  const company = run.args.subject as KnownCompany | undefined;
  return company ?? { key: run.target };
}

/** How a gtm-audit is judged, as its report's method section says it. */
export const GTM_AUDIT_METHOD = [
  `Each area is judged by what the evidence says, against a rubric of content checks; a point is met when a sentence about the company meets it, and that sentence is quoted and cited. The score is the share of the area's points met (0-100). An area where no point is met says "no evidence found" instead of a score, and gets no advice: the sources say nothing there. The overall score is the mean of the areas with evidence.`,
  '',
  rubricText(),
  '',
  `Evidence is the company's own pages (every sentence but those that start with another known company's name and do not name it) and third parties' pages (sentences that name it first); what rival companies' own pages say is left out, and so are Recon's own briefs stored as sources (titled "${OWN_BRIEF_TITLE}: ..."). "Recent" means published within ${RECENT_DAYS} days of the audit's start. A sentence cites points of one area only: points with the fewest candidate sentences choose first, preferring a sentence that meets most points of that area, then the company's own pages, then the newest. Recommendations list the points not found in areas with evidence, high before medium before low.`,
].join('\n');

export const gtmAuditPlan: RunPlan = {
  kind: 'gtm-audit',
  async executeStep(_env, run, step, work) {
    return assessArea(work.db, run.organizationId, runCompany(run), step as GtmArea, new Date(run.createdAt));
  },
  render(run) {
    return renderReport(run, {
      title: `GTM audit: ${escapeInline(runCompany(run).name ?? run.target)}`,
      stepTitle: (step) => AREAS[step as GtmArea]?.title ?? step,
      unscored: 'no evidence found',
      method: GTM_AUDIT_METHOD,
    });
  },
};
