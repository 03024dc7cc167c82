import { randomId } from '../ground/api-key.ts';
import { companiesNamedIn } from '../db/companies.ts';
import { renderBrief } from '../research/brief.ts';
import type { ResearchRequest } from '../research/provider.ts';
import { researchProviders, researchWithFallback } from '../research/providers.ts';
import { storeBrief } from '../research/store-brief.ts';
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
  const key = randomId('brf');
  const brief = { key, topic: input.topic, tier: input.tier, markdown, createdAt: now.toISOString(), result, about: companies };
  await storeBrief(ctx.env.DB, request.organizationId, brief, { kind: 'research', id: key });
  return markdown;
}

export { researchWithFallback };
