import { randomId } from '../../ground/api-key.ts';
import { composeBrief } from '../../research/brief.ts';
import type { ResearchRequest } from '../../research/provider.ts';
import { researchProviders, researchWithFallback } from '../../research/providers.ts';
import { storeBrief } from '../../research/store-brief.ts';
import { topicSpeakers } from '../../research/speakers.ts';
import type { CoreContext } from '../../ground/context.ts';
import type { ResearchInput } from './command-inputs.ts';
import { claimSource, type ResearchOutput } from './command-outputs.ts';
import type { SalesProfile } from '../../ground/schemas/profile.ts';

/** The research command's result: the brief's markdown and the same brief as data (its claims). */
export interface ResearchAnswer {
  markdown: string;
  data: ResearchOutput;
}

/**
 * The research command: ask the configured engine, fall back to the embedded one (with a visible
 * note) if the web provider fails, render the cited brief, and store it as a `brief` object linked
 * to the sources it cites and the company it is about.
 */
export async function research(ctx: CoreContext, input: ResearchInput, profile: SalesProfile): Promise<ResearchAnswer> {
  const request: ResearchRequest = {
    organizationId: ctx.principal.organization.id,
    topic: input.topic,
    tier: input.tier,
    sourcePolicy: { include: input.sourcePolicy?.include ?? [], exclude: input.sourcePolicy?.exclude ?? [] },
    userContext: input.userContext,
    profile,
  };
  const result = await researchWithFallback(researchProviders(ctx.env, ctx.db), request);
  const speakers = await topicSpeakers(ctx.db, request.organizationId, input.topic, result.sources, { ownDomain: profile.domain });
  const now = new Date();
  const { markdown, claims } = composeBrief({
    topic: input.topic,
    tier: input.tier,
    date: now.toISOString().slice(0, 10),
    result,
    profile,
    sourcePolicy: request.sourcePolicy,
    speakers,
  });
  const key = randomId('brf');
  const brief = { key, topic: input.topic, tier: input.tier, markdown, createdAt: now.toISOString(), result, about: speakers.named };
  await storeBrief(ctx.db, request.organizationId, brief, { kind: 'research', id: key });
  const data: ResearchOutput = {
    brief: key,
    topic: input.topic,
    tier: input.tier,
    engine: result.engine,
    ...(result.note ? { note: result.note } : {}),
    claims: claims.map(({ sentence, answer, sources }) => ({ text: sentence, answer, sources: sources.map((n) => claimSource(result.sources[n]!)) })),
  };
  return { markdown, data };
}

export { researchWithFallback };
