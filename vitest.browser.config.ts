import { defineConfig } from 'vitest/config';

// `npm run test:browser`: real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) against the real dev server, as a person would use the dashboard.
export default defineConfig({
  test: {
    name: 'browser',
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
