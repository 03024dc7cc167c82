import { readConfig } from '../ground/config.ts';
import { EmbeddedEngine } from './embedded-engine.ts';
import { ParallelProvider } from './parallel-provider.ts';
import type { ResearchProvider } from './provider.ts';

/** A sync command's caller is waiting: give the web provider a minute before falling back. */
const WEB_DEADLINE_MS = 60_000;

/** The engines to try, in order: the configured one first, the embedded engine always last. */
export function researchProviders(env: Env): ResearchProvider[] {
  const config = readConfig(env);
  const embedded = new EmbeddedEngine(env.DB);
  if (config.RESEARCH_PROVIDER === 'parallel' && config.PARALLEL_API_KEY) {
    return [new ParallelProvider({ apiKey: config.PARALLEL_API_KEY, deadlineMs: WEB_DEADLINE_MS }), embedded];
  }
  return [embedded];
}
