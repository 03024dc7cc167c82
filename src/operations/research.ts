import { randomId } from '../ground/api-key.ts';
import { companiesNamedIn } from '../db/companies.ts';
import { writeObjects, type LinkWrite, type ObjectWrite } from '../oms/store.ts';
import { renderBrief } from '../research/brief.ts';
import type { ResearchProvider, ResearchRequest, ResearchResult } from '../research/provider.ts';
import { researchProviders } from '../research/providers.ts';
import { speakersOf } from '../research/speakers.ts';
import type { CoreContext } from '../ground/context.ts';
import type { ResearchInput } from './command-inputs.ts';
import type { SalesProfile } from '../ground/schemas/profile.ts';

/**
 * The research command: ask the configured engine, fall back to the embedded one (with a visible
 * note) if the web provider fails, render the cited brief, and store it as a `brief` object linked
 * to the sources it cites and the company it is about.
 */
export async function research(ctx: CoreContext, input: ResearchInput, profile: SalesProfile): Promise<string> {
  const request: ResearchRequest = {
    organizationId: ctx.principal.organization.id,
    topic: input.topic,
    tier: input.tier,
    sourcePolicy: { include: input.sourcePolicy?.include ?? [], exclude: input.sourcePolicy?.exclude ?? [] },
    userContext: input.userContext,
    profile,
  };
  const [result, companies] = await Promise.all([
    researchWithFallback(researchProviders(ctx.env), request),
    companiesNamedIn(ctx.env.DB, request.organizationId, input.topic),
  ]);
  const speakers = await speakersOf(ctx.env.DB, request.organizationId, companies, result.sources, profile.domain);
  const now = new Date();
  const markdown = renderBrief({
    topic: input.topic,
    tier: input.tier,
    date: now.toISOString().slice(0, 10),
    result,
    profile,
    sourcePolicy: request.sourcePolicy,
    speakers,
  });
  await storeBrief(ctx, input, result, companies, markdown, now.toISOString());
  return markdown;
}

/**
 * Tries each provider in order. A provider that fails, or finds nothing it can quote, hands over to
 * the next, and the brief says so in a visible note.
 */
export async function researchWithFallback(providers: readonly ResearchProvider[], request: ResearchRequest): Promise<ResearchResult> {
  const failures: string[] = [];
  for (const [index, provider] of providers.entries()) {
    const last = index === providers.length - 1;
    let result: ResearchResult;
    try {
      result = await provider.research(request);
    } catch (error) {
      if (last) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      failures.push(`The ${provider.name} research provider could not answer (${reason}).`);
      continue;
    }
    if (result.findings.length === 0 && !last) {
      failures.push(`The ${provider.name} research provider found nothing it could quote.`);
      continue;
    }
    if (failures.length === 0) return result;
    return { ...result, note: `${failures.join(' ')} This brief comes from the ${provider.name} engine instead.` };
  }
  throw new Error('no research provider configured');
}

async function storeBrief(
  ctx: CoreContext,
  input: ResearchInput,
  result: ResearchResult,
  companies: string[],
  markdown: string,
  createdAt: string,
) {
  const org = ctx.principal.organization.id;
  const briefKey = randomId('brf');
  const source = { kind: 'research' as const, id: briefKey };
  if (result.newSources?.length) {
    const writes: ObjectWrite[] = result.newSources.map(({ source: s, content }) => ({
      type: 'source',
      key: s.url,
      properties: { title: s.title, content, ...(s.publishedAt ? { publishedAt: s.publishedAt } : {}) },
    }));
    await writeObjects(ctx.env.DB, org, writes, [], source);
  }
  const links: LinkWrite[] = result.sources.map((s) => ({
    link: 'cites',
    from: { type: 'brief', key: briefKey },
    to: { type: 'source', key: s.url },
  }));
  for (const company of companies) {
    links.push({ link: 'about', from: { type: 'brief', key: briefKey }, to: { type: 'company', key: company } });
  }
  const brief: ObjectWrite = {
    type: 'brief',
    key: briefKey,
    properties: { topic: input.topic, markdown, createdAt, tier: input.tier, engine: result.engine },
  };
  await writeObjects(ctx.env.DB, org, [brief], links, source, createdAt);
}
