/**
 * `npm run score:research [-- --corpus <name> --verbose --rounds 1 --hold]`: research quality on every
 * development corpus, offline and reproducibly (issue 25, "Measured").
 *
 * The real Worker runs under wrangler's local runtime (unstable_startWorker on 127.0.0.1, a fresh
 * seeded state, per-key rate limits raised as the benchmarks do, and SITE_ORIGIN_OVERRIDES naming
 * only a loopback port nothing listens on, so no site read reaches the network). Each corpus gets an
 * organization with a finished sales profile and its NDJSON imported through
 * POST /api/v1/oms/objects/import (every corpus before the first question: the search index's
 * statistics are then the same for every call); then every question's topic is sent, one at a time and in the
 * file's order, to POST /api/v1/commands/research (the default tier, lite), and each brief is scored
 * with the shared scorer's rules (scripts/lib/research-score.ts): faithful claims, gold source
 * cited, facts stated.
 *
 * Corpora (bench/research-corpora/README.md): `demo` (scripts/seed/knowledge-base/demo.ndjson in
 * the seeded acme organization, loaded as `npm run dev` loads it, with
 * bench/research-corpora/demo/questions.json), `held-out` (test/research/fixtures/quality/held-out/,
 * an organization whose profile is Frostline's), and every folder bench/research-corpora/<name>/
 * holding corpus.ndjson and questions.json (its profile.json, if any, as the profile).
 *
 * Prints per corpus one line of scores, the median and p95 wall time of a research call (client
 * side, loopback), and the CPU per brief: workerd's user + system CPU (/proc/<pid>/stat) over the
 * corpus's research calls divided by the calls, everything the Worker's runtime process did
 * meanwhile (storing each brief included). The runtime is the workerd process the first import
 * cost the most (wrangler runs a second one, its proxy, not counted). `--verbose` adds per question
 * the facts not stated and the unfaithful claims. `--rounds n` (1-20) asks every question n times in
 * a row for steadier timings and CPU: all rounds are timed, the first is scored (a note says if
 * another round scored differently). Results, each brief included, go to
 * .score-research/<name>.json.
 * Exits 1 if any cited claim is unfaithful, or a corpus's briefs cite no claim at all.
 * `--hold` keeps the Worker serving after the scores, printing its URL and each corpus's key, until
 * Ctrl-C (to score the same server with another tool, e.g. ../shared/tools/score-research.py).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getPlatformProxy, unstable_readConfig, unstable_startWorker } from 'wrangler';
import { FITTED_RANKING } from '../src/research/ranking-weights.ts';
import { cpuSeconds, workerdPids } from './bench/proc.ts';
import { benchConfig, BenchResources, createKey } from './bench/setup.ts';
import { ms, summarize, type Summary } from './bench/stats.ts';
import { freePort } from './lib/free-port.ts';
import { leaveOneCorpusOut, replayDisagreements, saveCapture } from './lib/leave-one-out.ts';
import { captureCorpus, prepareCorpus, type PreparedCorpus } from './lib/research-replay.ts';
import { corpusContents, parseQuestions, scoreBrief, scoreLine, totalScore, type CorpusScore, type QuestionScore, type ResearchQuestion } from './lib/research-score.ts';
import { PROJECT_ROOT } from './lib/wrangler.ts';
import { ACME_DEMO_KEY, DEMO_KNOWLEDGE_BASE, loadDemoKnowledgeBase, seedLocalDatabase } from './seed.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const USAGE = 'Usage: npm run score:research [-- --corpus <name>] [-- --verbose] [-- --rounds 1 (1-20)] [-- --hold]';
const { values: options } = parseArgs({
  options: {
    corpus: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    hold: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
/** How many times each corpus's questions are asked: more rounds, steadier timings and CPU (the first round is scored). */
const ROUNDS = Number(options.rounds);
if (options.help || !Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 20) {
  (options.help ? console.log : console.error)(USAGE);
  process.exit(options.help ? 0 : 2);
}

const CORPORA_DIR = path.join(PROJECT_ROOT, 'bench', 'research-corpora');
const RESULTS = path.join(PROJECT_ROOT, '.score-research');
/** Bounds on what a corpus folder brings: the corpus file, and the questions. */
const MAX_CORPUS_BYTES = 100 * 1024 * 1024;
const MAX_QUESTIONS = 1_000;
/** One import request: at most this many bytes and lines (the endpoint takes 10 MiB and 10,000 lines). */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_LINES = 5_000;
const RESEARCH_TIMEOUT_MS = 60_000;
const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** A profile for a corpus that brings none: a company whose domain no corpus uses. */
const NEUTRAL_PROFILE = {
  companyName: 'Research Scoring',
  domain: 'research-scoring.example',
  offering: 'Software for go-to-market teams.',
  icp: { industries: ['Software'], companySizes: ['51-200'], regions: ['Europe'], personas: ['VP Sales'] },
};

interface Corpus {
  name: string;
  corpusFile: string;
  questionsFile: string;
  /** The seeded acme organization (the demo market, as `npm run dev` has it), or an organization of its own with this profile. */
  org: { kind: 'acme' } | { kind: 'own'; profile: unknown };
}

function corpora(): Corpus[] {
  const found: Corpus[] = [
    {
      name: 'demo',
      corpusFile: path.join(PROJECT_ROOT, DEMO_KNOWLEDGE_BASE),
      questionsFile: path.join(CORPORA_DIR, 'demo', 'questions.json'),
      org: { kind: 'acme' },
    },
    {
      name: 'held-out',
      corpusFile: path.join(PROJECT_ROOT, 'test/research/fixtures/quality/held-out/corpus.ndjson'),
      questionsFile: path.join(PROJECT_ROOT, 'test/research/fixtures/quality/held-out/questions.json'),
      // The profile the held-out set was first scored with (test/research/fixtures/quality/README.md).
      org: {
        kind: 'own',
        profile: {
          companyName: 'Frostline',
          domain: 'frostline.co',
          offering: 'Temperature loggers',
          icp: { industries: ['Logistics'], companySizes: ['51-200'], regions: ['Europe'], personas: ['Fleet manager'] },
        },
      },
    },
  ];
  const builtIn = new Set(found.map((corpus) => corpus.name));
  for (const entry of readdirSync(CORPORA_DIR, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || builtIn.has(entry.name)) continue;
    const dir = path.join(CORPORA_DIR, entry.name);
    const corpusFile = path.join(dir, 'corpus.ndjson');
    const questionsFile = path.join(dir, 'questions.json');
    if (!existsSync(corpusFile) || !existsSync(questionsFile)) continue;
    if (!NAME_PATTERN.test(entry.name)) {
      console.warn(`Skipping bench/research-corpora/${entry.name}: a corpus is named by 1-40 lowercase letters, digits and hyphens.`);
      continue;
    }
    found.push({ name: entry.name, corpusFile, questionsFile, org: { kind: 'own', profile: 'profile.json' } });
  }
  return found;
}

interface Loaded {
  corpus: Corpus;
  ndjson: string;
  questions: ResearchQuestion[];
  profile?: unknown;
}

async function load(corpus: Corpus): Promise<Loaded> {
  const ndjson = await readFile(corpus.corpusFile, 'utf8');
  if (Buffer.byteLength(ndjson) > MAX_CORPUS_BYTES) throw new Error(`${corpus.corpusFile}: over ${MAX_CORPUS_BYTES / 1024 / 1024} MiB`);
  const questions = parseQuestions(await readFile(corpus.questionsFile, 'utf8'), path.relative(PROJECT_ROOT, corpus.questionsFile));
  if (questions.length > MAX_QUESTIONS) throw new Error(`${corpus.questionsFile}: over ${MAX_QUESTIONS} questions`);
  let profile: unknown;
  if (corpus.org.kind === 'own') {
    profile = corpus.org.profile;
    if (profile === 'profile.json') {
      const file = path.join(path.dirname(corpus.corpusFile), 'profile.json');
      profile = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as unknown) : NEUTRAL_PROFILE;
    }
  }
  return { corpus, ndjson, questions, profile };
}

// ---------------------------------------------------------------------------------------------
// HTTP.

function request(key: string, method: string, body: string, contentType = 'application/json'): RequestInit {
  return { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': contentType }, body, signal: AbortSignal.timeout(RESEARCH_TIMEOUT_MS) };
}

async function putProfile(base: string, key: string, name: string, profile: unknown): Promise<void> {
  const response = await fetch(`${base}/api/v1/profile`, request(key, 'PUT', JSON.stringify(profile)));
  const text = await response.text();
  if (response.status !== 200 || !(JSON.parse(text) as { complete?: boolean }).complete) {
    throw new Error(`PUT /api/v1/profile for ${name} answered ${response.status} (a profile must be finished): ${text.slice(0, 300)}`);
  }
}

/** Imports the corpus in requests of at most BATCH_BYTES and BATCH_LINES; throws on any failed line. */
async function importCorpus(base: string, key: string, loaded: Loaded): Promise<number> {
  const lines = loaded.ndjson.split('\n').filter((line) => line.trim() !== '');
  let written = 0;
  for (let start = 0; start < lines.length; ) {
    let end = start;
    let bytes = 0;
    while (end < lines.length && end - start < BATCH_LINES && (end === start || bytes + Buffer.byteLength(lines[end]!) + 1 <= BATCH_BYTES)) {
      bytes += Buffer.byteLength(lines[end]!) + 1;
      end++;
    }
    const body = `${lines.slice(start, end).join('\n')}\n`;
    const response = await fetch(`${base}/api/v1/oms/objects/import`, request(key, 'POST', body, 'application/x-ndjson'));
    const text = await response.text();
    const result = response.status === 200 ? (JSON.parse(text) as { imported: number; updated: number; unchanged: number; failed: number }) : undefined;
    if (!result || result.failed > 0) throw new Error(`importing ${loaded.corpus.name} answered ${response.status}: ${text.slice(0, 500)}`);
    written += result.imported + result.updated + result.unchanged;
    start = end;
  }
  return written;
}

async function research(base: string, key: string, topic: string): Promise<{ ms: number; markdown: string }> {
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/commands/research`, request(key, 'POST', JSON.stringify({ topic })));
  const markdown = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`research "${topic}" answered ${response.status}: ${markdown.slice(0, 300)}`);
  return { ms: elapsed, markdown };
}

// ---------------------------------------------------------------------------------------------
// The run.

interface Result {
  name: string;
  corpus: string;
  questions: string;
  organization: string;
  total: CorpusScore;
  researchMs: Summary;
  cpuMsPerBrief: number;
  perQuestion: (QuestionScore & { ms: number; markdown: string })[];
}

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

async function main(bench: BenchResources): Promise<number> {
  let selected = corpora();
  if (options.corpus !== undefined) {
    selected = selected.filter((corpus) => corpus.name === options.corpus);
    if (selected.length === 0) {
      console.error(`No corpus named "${options.corpus}"; there are: ${corpora().map((corpus) => corpus.name).join(', ')}.\n${USAGE}`);
      return 2;
    }
  }
  const loaded: Loaded[] = [];
  for (const corpus of selected) loaded.push(await load(corpus));
  const revision = commit();
  console.log(`Research quality at ${revision}: ${loaded.map((l) => `${l.corpus.name} (${l.questions.length} questions)`).join(', ')}.`);

  bench.tempDir = await mkdtemp(path.join(tmpdir(), 'recon-score-research-'));
  const persistTo = path.join(bench.tempDir, 'state');
  await seedLocalDatabase({ persistTo, quiet: true });
  const keys = new Map<string, string>();
  for (const l of loaded) keys.set(l.corpus.name, l.corpus.org.kind === 'acme' ? ACME_DEMO_KEY : await createKey(`score-${l.corpus.name}`, persistTo));

  const config = await benchConfig(bench.tempDir);
  // Site reads (started when a profile is finished) reach only the domains this names: one that
  // no corpus uses, on a loopback port nothing listens on. Nothing leaves the machine.
  const toml = await readFile(config, 'utf8');
  if (!/^\[vars\]$/m.test(toml)) throw new Error('wrangler.toml has no [vars] section');
  await writeFile(config, toml.replace(/^\[vars\]$/m, `[vars]\nSITE_ORIGIN_OVERRIDES = "no-site-reads.example=http://127.0.0.1:${await freePort()}"`));
  const worker = (bench.worker = await unstable_startWorker({
    config,
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: persistTo, watch: false, logLevel: 'error' },
  }));
  await worker.ready;
  removeTempDirOnExit(bench);
  const base = (await worker.url).origin;
  console.log(`Worker on ${base} (wrangler's local runtime, a fresh seeded state, rate limits raised). ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}.`);

  let runtimePid: number | undefined;
  let failed = false;
  const results: Result[] = [];
  await mkdir(RESULTS, { recursive: true });
  // Every corpus is imported before any question is asked: the search index's statistics (BM25
  // reads them over every organization's passages) are then the same for every research call and
  // for the capture taken afterwards, so the replay is the Worker's research call to the last digit.
  const imported = new Map<string, number>();
  for (const l of loaded) {
    const { name } = l.corpus;
    const key = keys.get(name)!;
    if (l.profile !== undefined) await putProfile(base, key, name, l.profile);
    const before = new Map(workerdPids().map((pid) => [pid, cpuSeconds(pid)]));
    imported.set(name, l.corpus.org.kind === 'acme' ? await demoImport(base) : await importCorpus(base, key, l));
    if (runtimePid === undefined) {
      // The runtime is the workerd process the import cost the most (it may start only at the first request).
      const pids = workerdPids();
      const spent = pids.map((pid) => cpuSeconds(pid) - (before.get(pid) ?? 0));
      runtimePid = pids[spent.indexOf(Math.max(...spent))];
    }
  }
  if (runtimePid === undefined) throw new Error('no workerd process found among our children');
  const runtime = runtimePid;
  for (const l of loaded) {
    const { name } = l.corpus;
    const key = keys.get(name)!;
    const objects = imported.get(name)!;

    const corpus = corpusContents(l.ndjson);
    const normalized = new Map<string, string>();
    // Every round asks every question in order; the first round is scored, all are timed.
    const rounds: { question: ResearchQuestion; ms: number; markdown: string }[][] = [];
    const cpuBefore = cpuSeconds(runtime);
    for (let round = 0; round < ROUNDS; round++) {
      const briefs: (typeof rounds)[number] = [];
      for (const question of l.questions) briefs.push({ question, ...(await research(base, key, question.topic)) });
      rounds.push(briefs);
    }
    const calls = ROUNDS * l.questions.length;
    const cpuMsPerBrief = ((cpuSeconds(runtime) - cpuBefore) * 1000) / calls;
    const briefs = rounds[0]!;
    const scoreOf = (round: typeof briefs) => JSON.stringify(totalScore(round.map((brief) => scoreBrief(brief.markdown, brief.question, corpus, normalized))));
    const unsteady = rounds.slice(1).some((round) => scoreOf(round) !== scoreOf(briefs));
    const perQuestion = briefs.map((brief) => ({ ...scoreBrief(brief.markdown, brief.question, corpus, normalized), ms: brief.ms, markdown: brief.markdown }));
    const total = totalScore(perQuestion);
    const result: Result = {
      name,
      corpus: path.relative(PROJECT_ROOT, l.corpus.corpusFile),
      questions: path.relative(PROJECT_ROOT, l.corpus.questionsFile),
      organization: l.corpus.org.kind === 'acme' ? 'acme (seeded)' : `score-${name}`,
      total,
      researchMs: summarize(rounds.flat().map((brief) => brief.ms)),
      cpuMsPerBrief,
      perQuestion,
    };
    results.push(result);
    if (total.faithful < total.claims || total.claims === 0) failed = true;

    if (options.verbose) {
      console.log(`\n== ${name} (${objects} objects imported) ==`);
      for (const q of perQuestion) {
        console.log(`${q.goldCited ? 'ok  ' : 'MISS'} gold  ${q.claims - q.faithful} unfaithful of ${q.claims} claims, facts ${q.factsStated}/${q.facts}  | ${q.topic}`);
        if (q.factsNotStated.length) console.log(`      facts not stated: ${JSON.stringify(q.factsNotStated)}`);
        for (const u of q.unfaithful) console.log(`      unfaithful [${u.marks.join(',')}] ${JSON.stringify(u.claim)}`);
      }
    }
    console.log(scoreLine(name, total));
    console.log(`  research: median ${ms(result.researchMs.median)} ms, p95 ${ms(result.researchMs.p95)} ms wall time per call; ${cpuMsPerBrief.toFixed(1)} ms workerd CPU per brief (${calls} briefs${ROUNDS > 1 ? `, ${ROUNDS} rounds` : ''})`);
    if (unsteady) console.warn(`  note: the rounds did not all score the same (the first is reported); the engine's answers changed between calls.`);
    const file = path.join(RESULTS, `${name}.json`);
    await writeFile(file, `${JSON.stringify({ commit: revision, date: new Date().toISOString(), loadAverage: loadavg(), ...result }, null, 2)}\n`);
  }
  console.log(`\nResults in ${path.relative(PROJECT_ROOT, RESULTS)}/<corpus>.json.`);
  if (options.hold) console.log('Leave-one-corpus-out: not measured with --hold (the Worker keeps the state).');
  else if (loaded.length < 2) console.log('Leave-one-corpus-out: needs two corpora or more (run without --corpus).');
  else if (!(await heldOutScores(bench, config, persistTo, loaded, results))) failed = true;
  if (failed) console.error('FAILED: a cited claim is not verbatim in the source its [n] names (or a corpus had no cited claim); run with --verbose.');

  if (options.hold) {
    console.log(`\nHolding: the Worker serves on ${base} until Ctrl-C. Keys: ${[...keys].map(([name, key]) => `${name} ${key}`).join(', ')}.`);
    await new Promise(() => undefined);
  }
  return failed ? 1 : 0;
}

/**
 * The leave-one-corpus-out score (leave-one-out.ts). Once the Worker is stopped, what the engine
 * retrieves for every question is captured from the state it leaves (read through wrangler's
 * getPlatformProxy: the real local D1) and saved for `npm run fit:research`; replaying each
 * research call under the fitted weights must give the Worker's own scores, question by question.
 * Then each corpus is scored by weights fitted on the others. False if the replay disagrees.
 */
async function heldOutScores(bench: BenchResources, config: string, persistTo: string, loaded: readonly Loaded[], results: readonly Result[]): Promise<boolean> {
  await bench.worker?.dispose();
  bench.worker = undefined;
  // Only the D1 binding, as the Worker's config declares it (the same database in the same state):
  // the Durable Object bindings would need the Worker's own code.
  const { compatibility_date, d1_databases } = unstable_readConfig({ config });
  const captureConfig = path.join(bench.tempDir!, 'capture.wrangler.json');
  await writeFile(captureConfig, JSON.stringify({ name: 'recon-research-capture', compatibility_date, d1_databases }));
  const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath: captureConfig, persist: { path: path.join(persistTo, 'v3') }, remoteBindings: false });
  const prepared: PreparedCorpus[] = [];
  try {
    for (const l of loaded) {
      const slug = l.corpus.org.kind === 'acme' ? 'acme' : `score-${l.corpus.name}`;
      const capture = await captureCorpus(proxy.env.DB, l.corpus.name, slug, l.questions);
      await saveCapture(PROJECT_ROOT, l.corpus.corpusFile, capture);
      prepared.push(prepareCorpus(capture, corpusContents(l.ndjson)));
    }
  } finally {
    await proxy.dispose();
  }
  let agree = true;
  prepared.forEach((corpus, i) => {
    const worker = results[i]!.perQuestion;
    const differ = replayDisagreements(corpus, FITTED_RANKING, worker.map((q) => q.factsStated), worker.map((q) => q.answerStatesFact));
    if (differ.length === 0) return;
    agree = false;
    console.error(`The replay disagrees with the Worker on ${differ.length} ${corpus.capture.name} questions, e.g. ${JSON.stringify(differ.slice(0, 3))}.`);
  });
  const started = performance.now();
  console.log(`\nLeave-one-corpus-out: each corpus scored by weights fitted on the others from the prior (replayed offline${agree ? ', as the Worker answers on every question' : ''}):`);
  const heldOut = leaveOneCorpusOut(prepared, console.log);
  for (const held of heldOut) console.log(scoreLine(`${held.name} (held out)`, held.total));
  console.log(`  (fitted and scored in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  await writeFile(path.join(RESULTS, 'leave-one-out.json'), `${JSON.stringify({ commit: commit(), date: new Date().toISOString(), heldOut }, null, 2)}\n`);
  return agree;
}

/**
 * On Ctrl-C miniflare's own signal listener exits the process before an async cleanup ends: the
 * temporary directory is removed synchronously on exit, by a listener registered after miniflare's.
 */
function removeTempDirOnExit(bench: BenchResources): void {
  const dir = bench.tempDir;
  process.on('exit', () => {
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });
}

async function demoImport(base: string): Promise<number> {
  const loaded = await loadDemoKnowledgeBase(base);
  if (loaded.failed > 0) throw new Error(`the demo knowledge base failed on ${loaded.failed} lines`);
  return loaded.imported + loaded.updated + loaded.unchanged;
}

const bench = new BenchResources(false);
let code = 1;
try {
  code = await main(bench);
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
} finally {
  await bench.cleanup();
}
process.exit(code);
