import { readConfig } from '../ground/config.ts';
import type { Db } from '../ground/db-session.ts';
import { EmbeddedEngine } from './embedded-engine.ts';
import { ParallelProvider } from './parallel-provider.ts';
import type { ResearchProvider, ResearchRequest, ResearchResult } from './provider.ts';
import { messageOf } from '../ground/errors.ts';

/** A sync command's caller is waiting: give the web provider a minute before falling back. */
const WEB_DEADLINE_MS = 60_000;

/** The engines to try, in order: the configured one first, the embedded engine always last (reading D1 through `db`). */
export function researchProviders(env: Env, db: Db): ResearchProvider[] {
  const config = readConfig(env);
  const embedded = new EmbeddedEngine(db);
  if (config.RESEARCH_PROVIDER === 'parallel' && config.PARALLEL_API_KEY) {
    return [new ParallelProvider({ apiKey: config.PARALLEL_API_KEY, deadlineMs: WEB_DEADLINE_MS }), embedded];
  }
  return [embedded];
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
      const reason = messageOf(error);
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
