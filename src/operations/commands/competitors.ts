import { randomId } from '../../ground/api-key.ts';
import { linkedCompetitors, listCompanies } from '../../db/companies.ts';
import { writeObjects } from '../../oms/store.ts';
import {
  findCompanyCells,
  findCompetitorEvidence,
  rankCompetitors,
  strongestEvidence,
  type CellQuote,
  type CompanyCells,
  type CompetitorCandidate,
  type KnownCompany,
} from '../../research/competitors.ts';
import { sourceLines } from '../../research/brief.ts';
import type { ResearchSource } from '../../research/provider.ts';
import { escapeCell, escapeInline } from '../../research/markdown-escape.ts';
import type { CoreContext } from '../../ground/context.ts';
import type { CompetitorsInput } from './command-inputs.ts';
import { claimSource, type CompetitorClaim, type CompetitorsOutput } from './command-outputs.ts';
import { Domain, normalizeDomain } from '../../ground/schemas/common.ts';
import type { SalesProfile } from '../../ground/schemas/profile.ts';

/**
 * The competitors command: candidates from the sales profile, from stored `competitors` links and
 * from evidence in the organization's sources, ranked by evidence, as a markdown table whose every
 * quoted sentence cites its source. Competitors found in the sources are written back as
 * `competitors` links (provenance: research).
 */
export async function competitors(ctx: CoreContext, input: CompetitorsInput, profile: SalesProfile): Promise<{ markdown: string; data: CompetitorsOutput }> {
  const db = ctx.db;
  const org = ctx.principal.organization.id;
  const companies = await listCompanies(db, org);
  const target = resolveTarget(input.company, profile, companies);

  const candidates = new Map<string, CompetitorCandidate>();
  const candidate = (key: string) => {
    let entry = candidates.get(key);
    if (!entry) {
      entry = { key, name: companies.find((c) => c.key === key)?.name, evidence: [], knownFrom: [] };
      candidates.set(key, entry);
    }
    return entry;
  };
  if (target.key === profile.domain) for (const key of profile.competitors) candidate(key).knownFrom.push('profile');
  for (const key of await linkedCompetitors(db, org, target.key, MAX_LINKED_COMPETITORS)) candidate(key).knownFrom.push('link');
  const known = [...companies, ...[...candidates.keys()].filter((k) => !companies.some((c) => c.key === k)).map((key) => ({ key }))];
  for (const [key, evidence] of await findCompetitorEvidence(db, org, target, known)) candidate(key).evidence.push(...evidence);
  candidates.delete(target.key);

  const ranked = rankCompetitors([...candidates.values()]).slice(0, input.limit);
  const cells = ranked.length ? await findCompanyCells(db, org, [target, ...ranked], known) : new Map<string, CompanyCells>();
  const markdown = render(target, ranked, cells);
  await linkDiscovered(ctx, target, ranked);
  return { markdown, data: asData(target, ranked, cells) };
}

/**
 * The table as data: the same companies and quotes `render` shows, in its order (the analysed
 * company's cells, then each competitor's cells and strongest evidence).
 */
function asData(target: KnownCompany, ranked: CompetitorCandidate[], cells: Map<string, CompanyCells>): CompetitorsOutput {
  const claims: CompetitorClaim[] = [];
  const cellClaims = (company: string) => {
    for (const kind of ['price', 'strength', 'weakness'] as const) {
      const cell = cells.get(company)?.[kind];
      if (!cell) continue;
      claims.push({ company, kind, text: cell.fragment, ...(cell.fragment === cell.sentence ? {} : { quote: cell.sentence }), sources: [claimSource(cell.source)] });
    }
  };
  if (ranked.length) cellClaims(target.key);
  const competitors = ranked.map((candidate, i) => {
    cellClaims(candidate.key);
    const evidence = strongestEvidence(candidate.evidence);
    if (evidence) claims.push({ company: candidate.key, kind: 'competition', text: evidence.sentence, sources: [claimSource(evidence.source)] });
    return {
      rank: i + 1,
      key: candidate.key,
      ...(candidate.name ? { name: candidate.name } : {}),
      evidence: candidate.evidence.length,
      knownFrom: [...candidate.knownFrom],
    };
  });
  return { company: { key: target.key, ...(target.name ? { name: target.name } : {}) }, competitors, claims };
}

/**
 * The company to analyse: a domain (any form `normalizeDomain` reads: `www.acme.com`,
 * `https://acme.com/`, `ACME.com.`), or a known company's name, or (by default) the caller's own.
 */
function resolveTarget(company: string | undefined, profile: SalesProfile, companies: KnownCompany[]): KnownCompany {
  const wanted = company ?? profile.domain!;
  const domain = normalizeDomain(wanted);
  if (domain) {
    return companies.find((c) => c.key === domain) ?? { key: domain, ...(domain === profile.domain ? { name: profile.companyName } : {}) };
  }
  const byName = companies.find((c) => c.name?.toLowerCase() === wanted.toLowerCase());
  return byName ?? { key: wanted.toLowerCase(), name: wanted };
}

/**
 * At most this many linked competitors are read for one analysis (it shows at most 25): those
 * linked to the target either way, by key (db/companies.ts `linkedCompetitors`). Links this command
 * wrote itself (provenance `research`) are left out: they restate the source evidence, and counting
 * them would change the next answer.
 */
export const MAX_LINKED_COMPETITORS = 100;

function render(target: KnownCompany, ranked: CompetitorCandidate[], cells: Map<string, CompanyCells>): string {
  // Names and keys come from the caller's input and imported data: escaped like any source text.
  const targetName = escapeInline(target.name ?? target.key);
  const title = `# Competitors of ${targetName}`;
  if (ranked.length === 0) {
    return [
      title,
      '',
      `No competitors of ${targetName} are known yet: none in your sales profile, none linked, and no source compares it with another known company.`,
      '',
      'Add competitor domains to your sales profile (`PUT /api/v1/profile`), or import comparison pages and reviews with `POST /api/v1/oms/objects/import`.',
      '',
    ].join('\n');
  }
  const shown = ranked.map((c) => ({ candidate: c, evidence: strongestEvidence(c.evidence) }));
  // Sources are numbered by the strongest evidence first (row by row), then by the cells.
  const sources: ResearchSource[] = [];
  const cite = (source: ResearchSource) => {
    let index = sources.findIndex((s) => s.url === source.url);
    if (index === -1) index = sources.push(source) - 1;
    return `[${index + 1}]`;
  };
  for (const { evidence } of shown) if (evidence) cite(evidence.source);
  const quote = (cell: CellQuote | undefined) => (cell ? `"${escapeCell(cell.fragment)}"${cell.cut ? '…' : ''} ${cite(cell.source)}` : 'not found');
  const columns = (key: string) => {
    const company = cells.get(key);
    return `${quote(company?.price)} | ${quote(company?.strength)} | ${quote(company?.weakness)}`;
  };
  const targetRow = `| — | ${escapeCell(target.name ?? target.key)} (analysed) | ${escapeCell(target.key)} | — | ${columns(target.key)} | — |`;
  const rows = shown.map(({ candidate, evidence }, i) => {
    const strongest = evidence ? `${escapeCell(evidence.sentence)} ${cite(evidence.source)}` : '—';
    const from = candidate.knownFrom.length ? ` (also: ${candidate.knownFrom.join(', ')})` : '';
    return `| ${i + 1} | ${escapeCell(candidate.name ?? candidate.key)} | ${escapeCell(candidate.key)} | ${candidate.evidence.length}${from} | ${columns(candidate.key)} | ${strongest} |`;
  });
  const lines = [
    title,
    '',
    `_${ranked.length} competitor${ranked.length === 1 ? '' : 's'}, ranked by the sentences in your sources that compare them with ${targetName}._`,
    '',
    '| Rank | Competitor | Domain | Evidence | Price | Strength | Weakness | Strongest evidence |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    targetRow,
    ...rows,
    '',
    `_Evidence counts the sentences in your sources that name ${targetName} and the competitor together with a comparison cue (alternative to, vs, compared with, switched from, competes with, ...); "also" says where else it is known from (your sales profile, a stored link). Price, Strength and Weakness quote, verbatim, the part of a source sentence that is about that company (it is the first company the part names) and states a price or plan, a strength, or a weakness; third parties are quoted before the company itself, newer sources before older; "not found" means no source in your knowledge base says so._`,
    '',
  ];
  lines.push('## Sources', '', ...sourceLines(sources), '');
  return lines.join('\n');
}

/** Writes `target competitors X` links for competitors found in sources (idempotent). */
async function linkDiscovered(ctx: CoreContext, target: KnownCompany, ranked: CompetitorCandidate[]) {
  if (!Domain.safeParse(target.key).success) return;
  const found = ranked.filter((c) => c.evidence.length > 0 && !c.knownFrom.includes('link'));
  // writeObjects leaves existing links as they are, so repeating an analysis adds nothing.
  if (found.length === 0) return;
  await writeObjects(
    ctx.db,
    ctx.principal.organization.id,
    [],
    found.map((c) => ({ link: 'competitors', from: { type: 'company', key: target.key }, to: { type: 'company', key: c.key } })),
    { kind: 'research', id: randomId('cmp') },
  );
}
