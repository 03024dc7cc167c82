/**
 * The local state every e2e server starts from, made once per run instead of once per file: the
 * migrations and the demo seed exactly as `npm run db:local` applies them (two wrangler processes,
 * most of a server's start), and a copy with the demo knowledge base loaded through a running
 * Worker's own import endpoint, as `npm run dev` loads it. startDevServer (./dev-server.ts) copies
 * one of them into its server's own temporary directory, so every file still has a state of its
 * own. A server made another way (`beforeSeed`, the legacy database upgrade) still seeds its own.
 *
 * The e2e project's globalSetup: it starts making them at once and returns, so the Workers-pool
 * files run meanwhile; a file waits for `<name>.ready` (or reads the error from `failed`).
 */
import { mkdtempSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { unstable_startWorker } from 'wrangler';
import { PROJECT_ROOT } from '../../scripts/lib/wrangler.ts';
import { loadDemoKnowledgeBase, seedLocalDatabase } from '../../scripts/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of the seeded states (see test/e2e/seeded-state.ts). */
    e2eSeededStates: string;
  }
}

/** `seeded`: migrations and demo seed; `knowledge-base`: that, plus the demo knowledge base in acme. */
export type SeededState = 'seeded' | 'knowledge-base';

export const READY_SUFFIX = '.ready';
export const FAILED = 'failed';

async function makeStates(root: string): Promise<void> {
  const seeded = path.join(root, 'seeded');
  await mkdir(seeded);
  await seedLocalDatabase({ persistTo: seeded, quiet: true });
  await writeFile(seeded + READY_SUFFIX, '');

  const knowledgeBase = path.join(root, 'knowledge-base');
  await cp(seeded, knowledgeBase, { recursive: true });
  const worker = await unstable_startWorker({
    config: path.join(PROJECT_ROOT, 'wrangler.toml'),
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: knowledgeBase, watch: false },
  });
  try {
    await worker.ready;
    await loadDemoKnowledgeBase((await worker.url).origin);
  } finally {
    await worker.dispose();
  }
  await writeFile(knowledgeBase + READY_SUFFIX, '');
}

export default function setup(project: TestProject) {
  const root = mkdtempSync(path.join(tmpdir(), 'recon-e2e-states-'));
  const making = makeStates(root).catch((error: unknown) =>
    writeFile(path.join(root, FAILED), error instanceof Error ? (error.stack ?? error.message) : String(error)),
  );
  project.provide('e2eSeededStates', root);
  return async () => {
    await making;
    await rm(root, { recursive: true, force: true });
  };
}
