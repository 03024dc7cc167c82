import { EmbeddedEngine } from './embedded-engine.ts';
import type { ResearchProvider } from './provider.ts';

/** The engines to try, in order: the configured one first, the embedded engine always last. */
export function researchProviders(env: Env): ResearchProvider[] {
  return [new EmbeddedEngine(env.DB)];
}
