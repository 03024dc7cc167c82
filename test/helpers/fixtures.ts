import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, randomId, SCOPES, type Scope } from '../../src/ground/api-key.ts';
import type { SalesProfile } from '../../src/ground/schemas/profile.ts';
import { insertKeyStatement } from '../../src/db/api-keys.ts';
import { insertOrganizationStatement } from '../../src/db/organizations.ts';
import { writeSalesProfile } from '../../src/db/sales-profiles.ts';

export const FINISHED_PROFILE: SalesProfile = {
  companyName: 'Acme Analytics',
  domain: 'acme.com',
  offering: 'Product analytics for B2B SaaS teams',
  icp: { industries: ['SaaS'], companySizes: ['51-200'], regions: ['North America'], personas: ['VP Product'] },
  competitors: ['globex.com'],
  valueProps: ['Dashboards in minutes'],
};

export interface TestOrganization {
  id: string;
  slug: string;
  key: string;
  keyId: string;
}

/** A fresh organization with one key; every test gets its own, so tests never share state or rate limits. */
export async function createOrganization(
  options: { profile?: SalesProfile | 'none'; scopes?: readonly Scope[] } = {},
): Promise<TestOrganization> {
  const id = randomId('org');
  const slug = `test-${id.slice(-10)}`;
  const now = new Date().toISOString();
  await insertOrganizationStatement(env.DB, { id, slug, name: `Test ${slug}`, createdAt: now }).run();
  const profile = options.profile ?? FINISHED_PROFILE;
  if (profile !== 'none') await writeSalesProfile(env.DB, id, profile, true, now);
  const { key, keyId } = await createKey(id, options.scopes ?? SCOPES);
  return { id, slug, key, keyId };
}

/** Another key for an existing organization. */
export async function createKey(organizationId: string, scopes: readonly Scope[] = SCOPES) {
  const key = generateApiKey();
  const keyId = randomId('key');
  await insertKeyStatement(env.DB, {
    id: keyId,
    organizationId,
    name: 'test key',
    prefix: displayPrefix(key),
    hash: await hashApiKey(key),
    scopes,
    createdAt: new Date().toISOString(),
  }).run();
  return { key, keyId };
}

/** A client address no other test uses (198.18.0.0/15, set aside for benchmarks), new at each call. */
export function randomClientAddress(): string {
  const [a, b, c] = crypto.getRandomValues(new Uint8Array(3));
  return `198.${18 + (a! & 1)}.${b}.${c}`;
}

/**
 * The client address `call()` sends (`CF-Connecting-IP`), one per test file: failed
 * authentications are throttled per address (in the isolate and in the rate-limit binding), and
 * test files share their runtime, so a file must not spend another's budget.
 */
const fileAddresses = new Map<string, string>();
export function clientAddress(): string {
  const file = expect.getState().testPath ?? '';
  let address = fileAddresses.get(file);
  if (address === undefined) {
    address = randomClientAddress();
    fileAddresses.set(file, address);
  }
  return address;
}

/** Calls the Worker as a client would, with an optional key and JSON body. */
export function call(
  path: string,
  options: { key?: string; method?: string; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers = new Headers(options.headers);
  if (!headers.has('CF-Connecting-IP')) headers.set('CF-Connecting-IP', clientAddress());
  if (options.key) headers.set('Authorization', `Bearer ${options.key}`);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set('Content-Type', 'application/json');
  }
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  return exports.default.fetch(new Request(`https://recon.test${path}`, { method, headers, body }));
}
