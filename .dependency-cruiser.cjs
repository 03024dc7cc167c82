/**
 * Recon's layers, checked by `npm test` (`npm run lint:deps`). A file may import its own layer and
 * the layers below it, never one above; nothing may import in a circle; the doors never reach
 * storage directly. test/ and scripts/ are not checked: they may import anything.
 *
 *   doors       src/app.ts, src/index.ts, src/env.ts, src/http-headers.ts (the headers every door writes:
 *               a refusal's and a run's), src/routes/, src/mcp/, src/middleware/, src/dashboard/
 *   operations  src/operations/   one file per operation both doors call, with its zod schema
 *   engines     src/research/, src/runs/, src/oms/, src/auth/, src/watches/,
 *               src/oauth/ (the OAuth authorization server: library setup, tokens to principals, consent),
 *               src/sites/ (reading companies' public sites: robots.txt, sitemaps, links, the frontier, the
 *               politeness rule, the site-read run in src/sites/read/ and the site's gate)
 *   storage     src/db/           D1 and Durable Object SQLite statements and row mapping
 *   ground      src/ground/       errors, context, config, ids and tokens, validation, log, shared schemas
 *
 * Within the doors: middleware runs for every door and imports none of them (what doors share sits
 * beside src/env.ts), and the dashboard is a door of its own, with its session's types and core
 * context in src/dashboard/, mounted by src/app.ts and imported by no other door.
 *
 * A Durable Object class lives with the engine it runs: RunObject in src/runs/, WatchObject in
 * src/watches/, SiteHostGate in src/sites/; src/index.ts exports them from there and imports nothing
 * else but the app and /healthz (test/layers/engine-homes.test.ts checks the classes themselves).
 */
const DOORS = '^src/(app|index|env|http-headers)\\.ts$|^src/(routes|mcp|middleware|dashboard)/';
const OPERATIONS = '^src/operations/';
const ENGINES = '^src/(research|runs|oms|auth|watches|oauth|sites)/';
const STORAGE = '^src/db/';
const GROUND = '^src/ground/';

/** A rule that forbids `from` importing any of `to`, named and explained for the error message. */
const upward = (name, from, to, comment) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Circular imports: split the shared part into a file both can import.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    upward('ground-imports-nothing-above', GROUND, `${STORAGE}|${ENGINES}|${OPERATIONS}|${DOORS}`, 'The ground (src/ground/) may import only the ground.'),
    upward('storage-imports-only-ground', STORAGE, `${ENGINES}|${OPERATIONS}|${DOORS}`, 'Storage (src/db/) may import only storage and the ground; define the row shapes it needs itself.'),
    upward('engines-never-import-operations-or-doors', ENGINES, `${OPERATIONS}|${DOORS}`, 'Engines may import engines, storage and the ground, never operations or doors.'),
    upward('operations-never-import-doors', OPERATIONS, DOORS, 'Operations are transport-agnostic: they never import routes, MCP or middleware.'),
    upward('doors-never-import-storage', DOORS, STORAGE, 'Doors call operations; only operations and engines reach src/db/.'),
    upward(
      'middleware-imports-no-other-door',
      '^src/middleware/',
      '^src/(routes|mcp|dashboard)/',
      'Middleware runs ahead of every door and never imports routes, MCP or the dashboard; what doors share (the headers of refusals and runs) is src/http-headers.ts.',
    ),
    upward(
      'only-the-app-mounts-the-dashboard',
      '^src/(routes|mcp|middleware)/|^src/(index|env|http-headers)\\.ts$',
      '^src/dashboard/',
      "The dashboard's session types, its core context and its pages are its own: src/app.ts mounts it, no other door imports it.",
    ),
    {
      name: 'durable-objects-live-with-their-engines',
      comment: 'src/index.ts exports the Durable Object classes from the engines they run (src/runs/, src/watches/, src/sites/), and imports only the app and /healthz besides.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(app\\.ts|routes/health\\.ts|runs/run-object\\.ts|watches/watch-object\\.ts|sites/site-host-gate\\.ts)$' },
    },
    {
      name: 'every-source-file-has-a-layer',
      comment: 'A file under src/ outside the known folders: put it in the layer it belongs to (and list new folders in .dependency-cruiser.cjs).',
      severity: 'error',
      from: { path: '^src/', pathNot: `${DOORS}|${OPERATIONS}|${ENGINES}|${STORAGE}|${GROUND}` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
