import { readFileSync } from 'node:fs';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// schema.sql is the one source of truth for D1; tests apply exactly that file.
const schema = await readD1Migrations({ projectPath: import.meta.dirname, migrationsDir: '.', migrationsPattern: 'schema.sql' });

export default defineConfig({
  test: {
    // Request logs are noise when a test passes and evidence when it fails.
    silent: 'passed-only',
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                TEST_SCHEMA: schema,
                // Workers-pool tests call https://recon.test; the local development hosts stay allowed.
                MCP_ALLOWED_HOSTS: 'localhost,127.0.0.1,[::1],recon.test',
                MCP_ALLOWED_ORIGINS: 'http://localhost,http://127.0.0.1,http://[::1],https://recon.test',
                // The demo market, for tests that need a realistic knowledge base.
                TEST_KNOWLEDGE_BASE: readFileSync(new URL('./scripts/seed/knowledge-base/demo.ndjson', import.meta.url), 'utf8'),
              },
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          setupFiles: ['./test/setup/apply-schema.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
