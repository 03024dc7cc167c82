import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// The migrations, as deploys and `npm run dev` apply them. Idempotent: applyD1Migrations records
// what it applied in d1_migrations and applies only the rest.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
