import { generateSources } from '../../scripts/bench/corpus.ts';
import { call } from './fixtures.ts';

/**
 * Imports `count` sources of the benchmark's synthetic corpus (scripts/bench/corpus.ts) into the
 * organization of `key`: a knowledge base where common words such as "team" match thousands of
 * passages, as a large customer's would.
 */
export async function importLargeKnowledgeBase(key: string, count: number): Promise<void> {
  const body = [...generateSources(count)].map((source) => JSON.stringify(source)).join('\n');
  const response = await call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  if (response.status !== 200) throw new Error(`import failed: ${response.status} ${await response.text()}`);
}
