import { sourceLines } from '../research/brief.ts';
import { escapeInline } from '../research/markdown-escape.ts';
import type { ResearchSource } from '../research/provider.ts';
import type { Fix, RunRecord } from './types.ts';

export interface ReportOptions {
  title: string;
  stepTitle: (step: string) => string;
  /** How the scores are computed (markdown lines of our own). */
  method: string;
  /** What the scorecard says for a step without a score (default "n/a"). */
  unscored?: string;
}

const PRIORITY_ORDER: Record<Fix['priority'], number> = { high: 0, medium: 1, low: 2 };

/**
 * Fixes ordered by impact: priority first (high, medium, low), then within a priority the fix that
 * concerns more things (`impact`) first, then in report order (a sort that keeps ties in place).
 */
export function byImpact<T extends Fix>(fixes: readonly T[]): T[] {
  return [...fixes].sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] || (b.impact ?? 1) - (a.impact ?? 1));
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The markdown of a run from its steps' outputs: a scorecard, a section per step with its quoted
 * findings (numbered across the whole report), a prioritized fix list and the sources. Used for
 * completed runs and, with a notice at the top, for failed and cancelled ones (partial results).
 */
export function renderReport(run: RunRecord, options: ReportOptions): string {
  const done = run.steps.filter((s) => s.status === 'done' && s.output);
  const unscored = options.unscored ?? 'n/a';
  const scores = done.map((s) => s.output!.score).filter((s): s is number => s !== null);
  const overall = scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : null;
  const lines = [
    `# ${options.title}`,
    '',
    `_${run.status} · ${(run.finishedAt ?? run.updatedAt).slice(0, 10)} · ${done.length} of ${run.steps.length} steps · overall score ${overall ?? 'n/a'}${overall === null ? '' : '/100'}_`,
    '',
  ];

  const failed = run.steps.find((s) => s.status === 'failed');
  if (run.status === 'failed' && failed) {
    lines.push(
      `> **This run failed** at step ${run.steps.indexOf(failed) + 1} of ${run.steps.length} (${options.stepTitle(failed.name)}) after ${failed.attempts} attempts: ${failed.error ?? 'unknown error'}.`,
      '> The steps before it are kept below. Retrying helps if the cause was temporary (storage or a provider being unavailable): start a new run. If it fails the same way again, the data it reads needs fixing first.',
      '',
    );
  }
  if (run.status === 'cancelled') {
    lines.push(`> **Cancelled** after ${done.length} of ${run.steps.length} steps; the results of those steps are kept below.`, '');
  }

  const sources: ResearchSource[] = [];
  const cite = (source: ResearchSource) => {
    let index = sources.findIndex((s) => s.url === source.url);
    if (index === -1) index = sources.push(source) - 1;
    return index + 1;
  };

  if (done.length) {
    lines.push('## Scorecard', '', '| Area | Score | Summary |', '| --- | --- | --- |');
    for (const step of done) {
      const { score, summary } = step.output!;
      lines.push(`| ${options.stepTitle(step.name)} | ${score === null ? unscored : `${score}/100`} | ${cell(summary)} |`);
    }
    lines.push('');
  }

  for (const step of done) {
    const output = step.output!;
    lines.push(`## ${options.stepTitle(step.name)}`, '');
    lines.push(`Score: **${output.score === null ? unscored : `${output.score}/100`}**. ${output.summary}`, '');
    if (output.details.length) lines.push(...output.details, '');
    if (output.rubric && output.findings.length) {
      // Each point met is cited with the sentence that meets it, quoted as in briefs.
      lines.push('Evidence:', '');
      for (const point of output.rubric) {
        const finding = point.finding === undefined ? undefined : output.findings[point.finding];
        lines.push(
          finding
            ? `- Met: ${point.label}. "${escapeInline(finding.sentence)}" [${cite(output.sources[finding.source]!)}]`
            : `- Not found: ${point.label}.`,
        );
      }
      lines.push('');
    } else if (output.findings.length) {
      lines.push('Evidence:', '');
      // Findings are quoted from sources: escaped as in briefs (markdown-escape.ts).
      for (const finding of output.findings) lines.push(`- ${escapeInline(finding.sentence)} [${cite(output.sources[finding.source]!)}]`);
      lines.push('');
    }
  }

  const fixes = byImpact(done.flatMap((step) => step.output!.fixes.map((fix) => ({ ...fix, area: options.stepTitle(step.name) }))));
  if (fixes.length) {
    lines.push('## Recommendations', '', '_Ordered by impact: high before medium before low; within a level, the fix that concerns more objects first._', '');
    fixes.forEach((fix, i) => lines.push(`${i + 1}. **${fix.priority}** (${fix.area}) ${fix.action} Where: ${fix.where}.`));
    lines.push('');
  }

  lines.push('## Method', '', options.method, '');
  if (sources.length) {
    lines.push('## Sources', '', ...sourceLines(sources), '');
  }
  return lines.join('\n');
}
