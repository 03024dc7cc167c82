/**
 * The official MCP conformance suite (pinned in package.json) against the real Worker, through
 * `npm run test:conformance` (scripts/conformance.ts: wrangler's local runtime on loopback, a fresh
 * seeded state, a loopback proxy adding a demo key), for both revisions Recon serves. The suite
 * itself reads conformance/expected-failures.yml and fails on any other failed check, and on a
 * listed one that now passes; each listed check needs one of the suite's own fixtures.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function runConformance(): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/conformance.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('the official MCP conformance suite', () => {
  it('passes at 2026-07-28 (tasks extension included) and at 2025-11-25, but for the checks that need its fixtures', { timeout: 240_000 }, async () => {
    const { code, output } = await runConformance();
    const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
    const totals = [...plain.matchAll(/^(\d{4}-\d{2}-\d{2})\s+all: (\d+) passed, (\d+) failed/gm)].map(([, version, passed]) => ({ version, passed: Number(passed) }));
    expect(totals.map((total) => total.version)).toEqual(['2026-07-28', '2025-11-25']);
    // Not a ratchet on counts: a floor that fails if a revision stopped being served at all.
    for (const total of totals) expect(total.passed, `${total.version} passed checks`).toBeGreaterThan(30);
    expect(code, plain.split('\n').filter((line) => /Unexpected|✗|now pass|stale/i.test(line)).join('\n')).toBe(0);
  });
});
