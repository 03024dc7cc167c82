import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Idempotent: applyD1Migrations records what it applied, and schema.sql is IF NOT EXISTS throughout.
await applyD1Migrations(env.DB, env.TEST_SCHEMA);
