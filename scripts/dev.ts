/**
 * `npm run dev [-- <wrangler dev args>]`: local development in one command. Seeds the local D1
 * (schema.sql + demo data, as `npm run db:local` does), then runs `wrangler dev --port 8787` with
 * any extra arguments passed through, e.g. `npm run dev -- --ip 0.0.0.0`. A `--persist-to <dir>`
 * among them is used for the seed too, so the server sees the seeded data. Works offline.
 * `--remote` is refused: the demo data and keys exist only in the local database.
 */
import { loadDemoKnowledgeBase, seedLocalDatabase, waitUntilServing } from './seed.ts';
import { spawnWrangler } from './lib/wrangler.ts';

const DEFAULT_PORT = '8787';

/** The value of `--name <v>` or `--name=<v>` in `args`, if present. */
function optionValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i]!.startsWith(`${name}=`)) return args[i]!.slice(name.length + 1);
  }
  return undefined;
}

const has = (args: readonly string[], name: string) => args.some((arg) => arg === name || arg.startsWith(`${name}=`));

const extra = process.argv.slice(2);
if (has(extra, '--remote') || extra.includes('-r')) {
  console.error('npm run dev is for local development (seeded local D1); run `wrangler dev --remote` directly for remote.');
  process.exit(2);
}
const persistTo = optionValue(extra, '--persist-to');
if (has(extra, '--persist-to') && (!persistTo || persistTo.startsWith('-'))) {
  console.error('--persist-to needs a directory.');
  process.exit(2);
}

try {
  await seedLocalDatabase({ persistTo });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const port = has(extra, '--port') ? [] : ['--port', DEFAULT_PORT];
const child = spawnWrangler(['dev', ...port, ...extra]);

// Ctrl-C in a terminal reaches wrangler too (same process group); a signal sent only to this
// process (e.g. by a process manager) is passed on, and we exit when wrangler does.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (error) => {
  console.error(`Could not start wrangler dev: ${error.message}`);
  process.exit(1);
});
// Once wrangler serves, load the demo market into acme through the import endpoint.
const portValue = optionValue(extra, '--port') ?? DEFAULT_PORT;
const ip = optionValue(extra, '--ip');
const base = `http://${ip && ip !== '0.0.0.0' ? ip : 'localhost'}:${portValue}`;
waitUntilServing(base)
  .then(() => loadDemoKnowledgeBase(base))
  .then((r) =>
    console.log(`Demo knowledge base loaded into acme: ${r.imported} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.failed} failed.`),
  )
  .catch((error: unknown) => console.error(`Could not load the demo knowledge base: ${error instanceof Error ? error.message : error}`));

child.on('exit', (code, signal) => {
  process.exit(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1));
});
