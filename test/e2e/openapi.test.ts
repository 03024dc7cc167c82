/**
 * The served OpenAPI document, end to end: fetched from the real dev server without a key, and
 * linted by Redocly's CLI with its `recommended` rules, as `npx @redocly/cli lint` would; any
 * error or warning fails `npm test`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/lib/wrangler.ts';
import { startDevServer, type DevServer } from './dev-server.ts';

const REDOCLY = path.join(PROJECT_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

let server: DevServer;
let scratch: string;

beforeAll(async () => {
  server = await startDevServer();
  scratch = await mkdtemp(path.join(tmpdir(), 'recon-openapi-'));
});

afterAll(async () => {
  await server?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** `redocly lint` on `file` with the recommended rules only (no config file is read), as JSON. */
async function lint(file: string): Promise<LintReport> {
  const args = [REDOCLY, 'lint', file, '--extends', 'recommended', '--format', 'json'];
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: scratch, env });
    return JSON.parse(stdout) as LintReport;
  } catch (error) {
    // A failed lint exits 1 with its report on stdout.
    const stdout = (error as { stdout?: string }).stdout;
    if (!stdout) throw error;
    return JSON.parse(stdout) as LintReport;
  }
}

describe('the OpenAPI document', () => {
  test('is served without a key, and passes redocly lint (recommended) with no error and no warning', async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    const file = path.join(scratch, 'openapi.json');
    await writeFile(file, await response.text());

    const report = await lint(file);
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  test('has its interactive reference beside it, without a key', async () => {
    const response = await fetch(`${server.url}/api/v1/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('/api/v1/openapi.json');
  });
});
