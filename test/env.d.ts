import type { D1Migration } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      /** schema.sql, split into statements by vitest.config.ts. */
      TEST_SCHEMA: D1Migration[];
      /** scripts/seed/knowledge-base/demo.ndjson. */
      TEST_KNOWLEDGE_BASE: string;
    }
    interface GlobalProps {
      mainModule: typeof import('../src/index.ts');
    }
  }
}
