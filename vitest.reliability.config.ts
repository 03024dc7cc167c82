import { defineConfig } from 'vitest/config';
import { loadProject } from './test/reliability/load/vitest.project.ts';
import base from './vitest.config.ts';

// `npm run test:reliability`: the property and isolation suites of test/reliability/, in the same
// Workers pool as `npm test`'s `workers` project (real D1, real Durable Objects, the same bindings and
// migrations), but apart from it: `npm test` excludes test/reliability/. Seeded by
// RECON_FUZZ_SEED (see test/reliability/support/seed.ts), so a run is reproducible.
const workers = base.test?.projects?.find(
  (project): project is Exclude<typeof project, string | ((...args: never[]) => unknown) | Promise<unknown>> =>
    typeof project === 'object' && project !== null && !(project instanceof Promise) && project.test?.name === 'workers',
);
if (!workers?.test) throw new Error('vitest.config.ts has no `workers` project to build the reliability project from.');

export default defineConfig({
  test: {
    // The `[reliability]` lines (inputs tried, the seed) show even when tests pass; request logs
    // and the Worker's own lines only when a test fails.
    silent: false,
    onConsoleLog: (log) => (log.includes('[reliability]') ? undefined : false),
    // Two cores: one file at a time keeps the property runs' timing honest and the suite steady.
    maxWorkers: 1,
    projects: [
      {
        ...workers,
        test: {
          ...workers.test,
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          // The load suite runs in Node against the bench runner (its own project, below).
          exclude: ['test/reliability/load/**'],
          // A property test sends hundreds of requests; the bound catches a hang, it times nothing.
          testTimeout: 90_000,
          hookTimeout: 60_000,
          provide: { fuzzSeed: process.env.RECON_FUZZ_SEED ?? '' },
        },
      },
      loadProject,
    ],
  },
});
