import type { SalesProfile } from '../ground/schemas/profile.ts';
import { hasSearchTerms } from './fts-query.ts';
import { escapeInline, escapeUrl } from './markdown-escape.ts';
import type { ResearchResult, ResearchSource } from './provider.ts';
import { terms } from './text.ts';

export interface BriefInput {
  topic: string;
  tier: 'lite' | 'base';
  /** YYYY-MM-DD: the brief's date (a date, not a time, so the same call renders the same brief). */
  date: string;
  result: ResearchResult;
  profile: SalesProfile;
  sourcePolicy: { include: string[]; exclude: string[] };
}

/**
 * One line per source, in every report that cites: `[n] Title, domain, date, URL`. Everything in it
 * comes from the source, so it is escaped (markdown-escape.ts): one line, no link but the plain URL.
 */
export function sourceLine(index: number, source: ResearchSource): string {
  return `[${index + 1}] ${escapeInline(source.title)}, ${escapeInline(source.domain)}, ${escapeInline(source.publishedAt ?? 'undated')}, ${escapeUrl(source.url)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Facts about the evidence itself (counts, domains, dates): the only sentences not quoted. */
function summary(result: ResearchResult): string {
  const domains = [...new Set(result.sources.map((s) => escapeInline(s.domain)))];
  const dates = result.sources.map((s) => s.publishedAt).filter((d): d is string => !!d).sort();
  const span = dates.length ? `, published ${dates[0] === dates.at(-1) ? `on ${dates[0]}` : `between ${dates[0]} and ${dates.at(-1)}`}` : '';
  const first = result.findings[0]!;
  return [
    `${plural(result.findings.length, 'finding')} from ${plural(result.sources.length, 'source')} on ${plural(domains.length, 'domain')} (${domains.join(', ')})${span}.`,
    `The most relevant: "${escapeInline(first.sentence)}" [${first.source + 1}]`,
  ].join(' ');
}

/** ICP entries and competitors a finding mentions: where the evidence touches the caller's market. */
function profileMatches(sentence: string, profile: SalesProfile): string[] {
  const lower = sentence.toLowerCase();
  const mentions = (phrase: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${escape(phrase.toLowerCase())}([^\\p{L}\\p{N}]|$)`, 'u').test(lower);
  const labels: string[] = [];
  const lists: [string[], string][] = [
    [profile.icp.industries, 'an industry you sell to'],
    [profile.icp.companySizes, 'a company size you sell to'],
    [profile.icp.regions, 'a region you sell in'],
    [profile.icp.personas, 'a persona you sell to'],
  ];
  for (const [entries, what] of lists) {
    for (const entry of entries) if (mentions(entry)) labels.push(`**${escapeInline(entry)}** (${what})`);
  }
  for (const domain of profile.competitors) {
    if (mentions(domain) || mentions(domain.split('.')[0]!)) labels.push(`**${domain}** (a competitor you named)`);
  }
  return labels;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function policyNote(policy: BriefInput['sourcePolicy']): string {
  const parts = [];
  if (policy.include.length) parts.push(`only ${policy.include.join(', ')}`);
  if (policy.exclude.length) parts.push(`not ${policy.exclude.join(', ')}`);
  return parts.length ? ` (sources: ${parts.join('; ')})` : '';
}

/**
 * The markdown brief. Every sentence under Key findings is quoted verbatim from the source its
 * `[n]` names; the other sections only count, date and point at those findings.
 */
export function renderBrief(input: BriefInput): string {
  const { result } = input;
  const topic = escapeInline(input.topic);
  const lines = [
    `# Research brief: ${topic}`,
    '',
    `_${input.date} · tier ${input.tier} · ${plural(result.sources.length, 'source')} · ${result.engine} engine${policyNote(input.sourcePolicy)}_`,
    '',
  ];
  // A note can carry a provider's error text: escaped like any text from outside.
  if (result.note) lines.push(`> **Note:** ${escapeInline(result.note)}`, '');

  if (result.findings.length === 0) {
    const searchable = hasSearchTerms(terms(input.topic));
    lines.push(
      '## Summary',
      '',
      searchable
        ? `Nothing in your knowledge base matches "${topic}"${policyNote(input.sourcePolicy)}. Recon states only what its sources say, so this brief has no findings.`
        : `"${topic}" has no words Recon can search for (only punctuation, symbols, one-letter words or words such as "the" and "with"), so this brief has no findings.`,
      '',
      '## How to get an answer',
      '',
      '- Add sources (saved pages, call notes, docs) with `POST /api/v1/oms/objects/import` (NDJSON, one source per line).',
      '- Or let Recon research the web: set `RESEARCH_PROVIDER=parallel` and the `PARALLEL_API_KEY` secret.',
      searchable ? '- Or try other words for the topic, or a wider source policy.' : '- Name what to research in words: a company, product, market or question, e.g. "Acme Analytics pricing".',
      '',
    );
    return lines.join('\n');
  }

  lines.push('## Summary', '', summary(result), '', '## Key findings', '');
  result.findings.forEach((finding, i) => lines.push(`${i + 1}. ${escapeInline(finding.sentence)} ${[finding.source, ...(finding.also ?? [])].map((n) => `[${n + 1}]`).join('')}`));
  lines.push('');

  const related = result.findings
    .map((finding, i) => ({ i, finding, labels: profileMatches(finding.sentence, input.profile) }))
    .filter((entry) => entry.labels.length > 0);
  if (related.length > 0) {
    lines.push('## How this relates to your sales profile', '');
    for (const { i, finding, labels } of related) {
      lines.push(`- Finding ${i + 1} [${finding.source + 1}] mentions ${labels.join(', ')}.`);
    }
    lines.push('');
  }

  lines.push('## Sources', '', ...result.sources.map((source, i) => sourceLine(i, source)), '');
  return lines.join('\n');
}
