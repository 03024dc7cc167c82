import type { D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      /** migrations/, in order, read by vitest.config.ts (test/setup/apply-schema.ts applies them to DB). */
      TEST_MIGRATIONS: D1Migration[];
      /** schema.sql as one migration, for test/migrations/. */
      TEST_SCHEMA_SQL: D1Migration[];
      /** Empty D1 databases for test/migrations/. */
      MIGRATIONS_DB: D1Database;
      SCHEMA_SQL_DB: D1Database;
      UPGRADE_DB: D1Database;
      HIGH_BLOCKS_DB: D1Database;
      /** scripts/seed/knowledge-base/demo.ndjson. */
      TEST_KNOWLEDGE_BASE: string;
    }
    interface GlobalProps {
      mainModule: typeof import('../src/index.ts');
    }
  }
}
