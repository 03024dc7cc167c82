import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The load test's vitest project, for vitest.reliability.config.ts's `projects` (beside the Workers
 * pool project, which must exclude test/reliability/load/**): it runs in Node, builds the Worker
 * and serves it with Miniflare as `npm run bench` does, so it needs its own environment and time.
 */
export const loadProject: TestProjectInlineConfiguration = {
  test: {
    name: 'reliability-load',
    include: ['test/reliability/load/**/*.test.ts'],
    environment: 'node',
    // The build, the seed and 26 s of load: the bound catches a hang, it times nothing.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
};
