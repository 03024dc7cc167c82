/**
 * The size of a built Worker as Cloudflare counts it against its limit: the modules that
 * `wrangler deploy --dry-run --outdir` wrote (source maps and wrangler's README left out), raw and
 * gzipped together (wrangler's own "Total Upload: ... / gzip: ..." counts them the same way).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleSize {
  raw: number;
  gzip: number;
}

export function builtSize(outdir: string): BundleSize {
  const modules = readdirSync(outdir)
    .filter((file) => !file.endsWith('.map') && file !== 'README.md')
    .map((file) => path.join(outdir, file))
    .filter((file) => statSync(file).isFile());
  const all = Buffer.concat(modules.map((file) => readFileSync(file)));
  return { raw: all.length, gzip: gzipSync(all).length };
}

/** Bytes in KiB, e.g. "7,566 KiB". */
export function kib(bytes: number): string {
  return `${Math.round(bytes / 1024).toLocaleString('en-US')} KiB`;
}
