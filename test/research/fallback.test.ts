import { describe, expect, it } from 'vitest';
import { researchWithFallback } from '../../src/operations/commands/research.ts';
import type { ResearchProvider, ResearchRequest, ResearchResult } from '../../src/research/provider.ts';
import { FINISHED_PROFILE } from '../helpers/fixtures.ts';

const REQUEST: ResearchRequest = {
  organizationId: 'org_x',
  topic: 'pricing',
  tier: 'lite',
  sourcePolicy: { include: [], exclude: [] },
  profile: FINISHED_PROFILE,
};

const EMBEDDED_RESULT: ResearchResult = {
  engine: 'embedded',
  findings: [{ sentence: 'The Team plan costs $49 per seat per month.', source: 0 }],
  sources: [{ url: 'https://acme.com/pricing', title: 'Pricing', domain: 'acme.com' }],
};

function provider(name: 'embedded' | 'parallel', research: () => Promise<ResearchResult>): ResearchProvider {
  return { name, research };
}

describe('researchWithFallback', () => {
  it('returns the first provider\'s result untouched when it answers', async () => {
    const web = { ...EMBEDDED_RESULT, engine: 'parallel' as const };
    const result = await researchWithFallback([provider('parallel', async () => web), provider('embedded', async () => EMBEDDED_RESULT)], REQUEST);
    expect(result).toBe(web);
  });

  it('falls back to the embedded engine with a visible note when the web provider fails', async () => {
    const result = await researchWithFallback(
      [provider('parallel', async () => Promise.reject(new Error('Parallel could not be reached'))), provider('embedded', async () => EMBEDDED_RESULT)],
      REQUEST,
    );
    expect(result.engine).toBe('embedded');
    expect(result.note).toBe(
      'The parallel research provider could not answer (Parallel could not be reached). This brief comes from the embedded engine instead.',
    );
  });

  it('falls back when the web provider finds nothing it can quote', async () => {
    const empty: ResearchResult = { engine: 'parallel', findings: [], sources: [] };
    const result = await researchWithFallback([provider('parallel', async () => empty), provider('embedded', async () => EMBEDDED_RESULT)], REQUEST);
    expect(result.engine).toBe('embedded');
    expect(result.note).toContain('found nothing it could quote');
  });

  it('lets the last provider\'s failure through', async () => {
    await expect(researchWithFallback([provider('embedded', async () => Promise.reject(new Error('D1 down')))], REQUEST)).rejects.toThrow('D1 down');
  });
});
