import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { competitors } from '../../src/operations/commands/competitors.ts';
import type { CoreContext } from '../../src/ground/context.ts';
import { research } from '../../src/operations/commands/research.ts';
import type { ResearchOutput } from '../../src/operations/commands/command-outputs.ts';
import { importObjects } from '../../src/oms/import.ts';
import { escapeInline } from '../../src/research/markdown-escape.ts';
import { plainText } from '../helpers/markdown-text.ts';
import { createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { briefClaims, briefSources } from './brief-claims.ts';
import { requestDbOver } from '../helpers/request-db.ts';

interface Line {
  type?: string;
  key?: string;
  properties?: { name?: string; content?: string };
}

const lines = env.TEST_KNOWLEDGE_BASE.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
const contentByUrl = new Map(lines.filter((l) => l.type === 'source').map((l) => [l.key!, l.properties!.content!]));
const companies = lines.filter((l) => l.type === 'company').map((l) => l.properties!.name!);
const ASPECTS = ['pricing', 'customers', 'funding round', 'hiring', 'integrations', 'reviews', 'alternatives', 'product launch'];
// 11 companies x 8 aspects = 88 topics, a few in the base tier and with user context.
const TOPICS = companies.flatMap((company) => ASPECTS.map((aspect) => `${company} ${aspect}`));

let ctx: CoreContext;

beforeAll(async () => {
  const org = await createOrganization({ profile: { ...FINISHED_PROFILE, competitors: ['globex.com', 'funnelwise.io'] } });
  ctx = {
    env,
    db: requestDbOver(),
    requestId: 'faithfulness',
    principal: { organization: { id: org.id, slug: org.slug, name: org.slug }, keyId: org.keyId, scopes: ['commands', 'oms:write'] },
  };
  const result = await importObjects(ctx, env.TEST_KNOWLEDGE_BASE);
  expect(result.failed).toBe(0);
});

/** Every [n] resolves to a listed source, every listed source is cited, and every quoted sentence is in the source it cites. */
function checkCitations(markdown: string, quoted: RegExp, everySourceCited = true): number {
  const sources = [...markdown.matchAll(/^\[(\d+)\] .*, (https?:\/\/\S+)$/gm)].map((m) => ({ n: Number(m[1]), url: m[2]! }));
  sources.forEach((s, i) => expect(s.n).toBe(i + 1));
  const cited = new Set<number>();
  let count = 0;
  for (const match of markdown.matchAll(quoted)) {
    const sentence = match[1]!;
    const n = Number(match[2]);
    const source = sources[n - 1];
    expect(source, `[${n}] does not resolve in:\n${markdown}`).toBeDefined();
    // Quotes are escaped for markdown (markdown-escape.ts): compare what a reader sees of each.
    expect(plainText(escapeInline(contentByUrl.get(source!.url)!)), `"${sentence}" is not in ${source!.url}`).toContain(plainText(sentence));
    cited.add(n);
    count++;
  }
  if (everySourceCited) for (const s of sources) expect(cited.has(s.n), `source [${s.n}] is listed but never cited`).toBe(true);
  return count;
}

/**
 * Every [n] of a brief resolves, every listed source is cited, and every quoted sentence (the
 * answer, each finding, each differing figure) is in every source it cites.
 */
function checkBrief(markdown: string): number {
  const sources = briefSources(markdown);
  sources.forEach((s, i) => expect(s.n).toBe(i + 1));
  const cited = new Set<number>();
  const claims = briefClaims(markdown);
  for (const { sentence, cites } of claims) {
    for (const n of cites) {
      const source = sources[n - 1];
      expect(source, `[${n}] does not resolve in:\n${markdown}`).toBeDefined();
      expect(plainText(escapeInline(contentByUrl.get(source!.url)!)), `"${sentence}" is not in ${source!.url}`).toContain(plainText(sentence));
      cited.add(n);
    }
  }
  for (const s of sources) expect(cited.has(s.n), `source [${s.n}] is listed but never cited`).toBe(true);
  return claims.length;
}

/**
 * A brief's data (the research tool's structured content) holds the claims its markdown quotes:
 * the same sentences citing the same sources, each sentence verbatim in every source it names.
 */
function checkBriefData(markdown: string, data: ResearchOutput): void {
  const urls = briefSources(markdown).map((s) => s.url);
  const quoted = new Set(briefClaims(markdown).map(({ sentence, cites }) => `${sentence} ${cites.map((n) => urls[n - 1]).join(' ')}`));
  const given = new Set(data.claims.map(({ text, sources }) => `${escapeInline(text)} ${sources.map((s) => s.url).join(' ')}`));
  expect(given, markdown).toEqual(quoted);
  expect(data.claims.length).toBe(given.size);
  // The Answer line quotes the claims marked `answer` (one per side of a comparison), first and in
  // order, or, when no finding is of the kind asked for, says so and quotes none.
  const answers = data.claims.filter((claim) => claim.answer);
  expect(data.claims.slice(0, answers.length)).toEqual(answers);
  const answerLine = markdown.split('\n').find((line) => line.startsWith('**Answer:**'));
  if (data.claims.length === 0) expect(answerLine).toBeUndefined();
  else if (answers.length === 0) expect(answerLine).toMatch(/^\*\*Answer:\*\* Not stated\. /);
  else expect(answerLine).toContain(`**Answer:** "${escapeInline(answers[0]!.text)}"`);
  for (const claim of answers) expect(answerLine).toContain(`"${escapeInline(claim.text)}"`);
  for (const { text, sources } of data.claims) for (const { url } of sources) expect(contentByUrl.get(url), url).toContain(text);
}

describe('faithfulness on the demo market', () => {
  it(`cites only sentences that occur in their sources, over ${TOPICS.length} research topics`, { timeout: 120_000 }, async () => {
    expect(TOPICS.length).toBeGreaterThanOrEqual(50);
    let findings = 0;
    for (const [i, topic] of TOPICS.entries()) {
      const tier = i % 5 === 0 ? 'base' : 'lite';
      const userContext = i % 7 === 0 ? 'enterprise buyers in Europe' : undefined;
      const { markdown, data } = await research(ctx, { topic, tier, userContext }, FINISHED_PROFILE);
      const claims = checkBrief(markdown);
      checkBriefData(markdown, data);
      // Nothing quoted is left unparsed: every line with a citation marker is a claim checked above.
      const cites = markdown.slice(0, markdown.indexOf('## Sources')).split('\n').filter((line) => /\[\d+\]/.test(line) && !line.startsWith('- **'));
      expect(cites.length, markdown).toBe(claims);
      findings += claims;
    }
    // The market is rich: nearly every topic finds something.
    expect(findings).toBeGreaterThan(TOPICS.length * 3);
  });

  it('cites only sentences that occur in their sources in competitor analyses', { timeout: 60_000 }, async () => {
    for (const company of companies) {
      const { markdown, data } = await competitors(ctx, { company, limit: 25 }, FINISHED_PROFILE);
      // The strongest evidence and the quoted price, strength and weakness cells ("fragment" [n], "fragment"… [n]).
      const evidence = checkCitations(markdown, /\| "?((?:[^|\\]|\\.)+?)"?…? \[(\d+)\] (?=\|)/g);
      expect(evidence, company).toBeGreaterThanOrEqual(company === 'Acme Analytics' ? 3 : 1);
      // The same quotes as data: as many, each verbatim in its source, a cell's text inside its quote.
      expect(data.claims.length, company).toBe(evidence);
      expect(data.competitors.length).toBe(markdown.split('\n').filter((line) => /^\| \d+ \|/.test(line)).length);
      for (const claim of data.claims) {
        const content = contentByUrl.get(claim.sources[0]!.url)!;
        expect(content, claim.sources[0]!.url).toContain(claim.quote ?? claim.text);
        if (claim.quote) expect(claim.quote).toContain(claim.text);
        expect(markdown).toContain(claim.sources[0]!.url);
      }
    }
  });
});
