import { call } from '../helpers/fixtures.ts';

/** POSTs `body` to an OMS read (`search`, `pivot`, `get`, `provenance`) and answers status and JSON. */
export async function omsRead(key: string, read: string, body: unknown): Promise<{ status: number; json: any }> {
  const response = await call(`/api/v1/oms/objects/${read}`, { key, body });
  return { status: response.status, json: await response.json() };
}

/** Imports NDJSON lines (objects or links) into the organization of `key`. */
export async function importLines(key: string, lines: readonly unknown[]): Promise<void> {
  const response = await call('/api/v1/oms/objects/import', {
    key,
    method: 'POST',
    rawBody: lines.map((line) => JSON.stringify(line)).join('\n'),
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  const result = await response.json<{ failed: number }>();
  if (response.status !== 200 || result.failed) throw new Error(`import failed: ${JSON.stringify(result)}`);
}

export const COMPETITORS = [
  { type: 'company', key: 'initech.com', properties: { name: 'Initech', description: 'Analytics for banks' } },
  { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'globex.com' } },
  { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'initech.com' } },
];
