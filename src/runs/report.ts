import { sourceLine } from '../research/brief.ts';
import { escapeInline } from '../research/markdown-escape.ts';
import type { ResearchSource } from '../research/provider.ts';
import type { Fix, RunRecord } from './types.ts';

export interface ReportOptions {
  title: string;
  stepTitle: (step: string) => string;
  /** How the scores are computed, in one paragraph. */
  method: string;
}

const PRIORITY_ORDER: Record<Fix['priority'], number> = { high: 0, medium: 1, low: 2 };

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
      lines.push(`| ${options.stepTitle(step.name)} | ${score === null ? 'n/a' : `${score}/100`} | ${cell(summary)} |`);
    }
    lines.push('');
  }

  for (const step of done) {
    const output = step.output!;
    lines.push(`## ${options.stepTitle(step.name)}`, '');
    lines.push(`Score: **${output.score === null ? 'n/a' : `${output.score}/100`}**. ${output.summary}`, '');
    if (output.details.length) lines.push(...output.details, '');
    if (output.findings.length) {
      lines.push('Evidence:', '');
      // Findings are quoted from sources: escaped as in briefs (markdown-escape.ts).
      for (const finding of output.findings) lines.push(`- ${escapeInline(finding.sentence)} [${cite(output.sources[finding.source]!)}]`);
      lines.push('');
    }
  }

  const fixes = done
    .flatMap((step) => step.output!.fixes.map((fix) => ({ ...fix, area: options.stepTitle(step.name) })))
    .sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority]);
  if (fixes.length) {
    lines.push('## Recommendations', '');
    fixes.forEach((fix, i) => lines.push(`${i + 1}. **${fix.priority}** (${fix.area}) ${fix.action} Where: ${fix.where}.`));
    lines.push('');
  }

  lines.push('## Method', '', options.method, '');
  if (sources.length) {
    lines.push('## Sources', '');
    sources.forEach((s, i) => lines.push(sourceLine(i, s)));
    lines.push('');
  }
  return lines.join('\n');
}
