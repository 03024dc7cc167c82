/**
 * Local Browser Rendering on Debian's Chromium, offline: for `npm run dev` (scripts/dev.ts) and the
 * Workers test pool (vitest.config.ts), where the `BROWSER` binding of wrangler.toml is simulated by
 * Miniflare.
 *
 * Miniflare runs a pinned Chrome for Testing build (BROWSER_VERSION in its source) from wrangler's
 * global cache and downloads it when it is missing, which fails without a network. It takes any
 * executable at the path it looks for, so a link there to `/usr/bin/chromium` makes it start
 * Debian's Chromium instead (a newer Chrome: @cloudflare/puppeteer speaks to it over CDP all the
 * same). The build id and the cache folder are read from the installed miniflare at runtime, so the
 * link follows a wrangler upgrade; a miniflare whose source no longer reads as expected is an error
 * that says so, not a silent download later.
 *
 * Chromium refuses to start as root without `--no-sandbox`, and Miniflare adds that flag only when
 * `CI` is set; after a failed start it deletes the folder the link is in. So as root, `CI=true` is
 * set in this process's environment, which Miniflare in this process and wrangler children inherit.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from './wrangler.ts';

/** Debian's Chromium (`apt-get install chromium`); `/usr/bin/chromium` is its launcher script. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The packages that embed a Miniflare which may start a browser: `wrangler dev` and the Workers test pool. */
const MINIFLARE_USERS = ['wrangler', '@cloudflare/vitest-plugin'];

/** What ensureLocalBrowser set up. */
export interface LocalBrowser {
  /** The Chromium that local Browser Rendering runs. */
  executable: string;
  /** The links Miniflare starts it through, one per Chrome build id the installed miniflares pin. */
  links: string[];
  /** Whether `CI=true` was set here so that Miniflare passes `--no-sandbox` (running as root). */
  setCi: boolean;
}

/**
 * Installs Debian's Chromium with apt-get, as root on a Debian machine (the tests' set-up: `npm test`
 * on a fresh machine does it, as `.ci/run` does for the browser suite); elsewhere it does nothing and
 * ensureLocalBrowser says what to run. It needs Debian's package mirror, not the internet at large.
 */
function installDebianChromium(): void {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env, stdio: 'ignore' }).status === 0;
  console.error('Installing Debian\'s chromium for local Browser Rendering (apt-get install chromium)...');
  if (install()) return;
  spawnSync('apt-get', ['update'], { env, stdio: 'ignore' });
  install();
}

/** Local Browser Rendering cannot use Debian's Chromium; the message says what to do. */
export class LocalBrowserError extends Error {
  override name = 'LocalBrowserError';
}

/**
 * Makes local Browser Rendering (Miniflare's, in wrangler dev and the Workers test pool) start
 * `chromium` offline: links it where each installed miniflare looks for its Chrome, and sets `CI`
 * when running as root (see the file comment). Idempotent and synchronous (a config module calls it
 * before its pool starts). A real Chrome already installed at that path is left as it is. Outside
 * Linux it does nothing and returns undefined (Miniflare downloads its own Chrome there). Throws a
 * LocalBrowserError when Chromium is missing ("apt-get install chromium") or when miniflare's
 * source no longer says where it looks.
 */
export function ensureLocalBrowser(chromium: string = DEBIAN_CHROMIUM, options: { install?: boolean } = {}): LocalBrowser | undefined {
  const platform = browserPlatform();
  if (!platform) return undefined;
  if (!existsSync(chromium) && options.install && chromium === DEBIAN_CHROMIUM) installDebianChromium();
  if (!existsSync(chromium)) {
    throw new LocalBrowserError(
      `Local Browser Rendering needs Chromium at ${chromium}, and it is not installed: run \`apt-get install -y chromium\` (as root), then start again.`,
    );
  }
  const cache = wranglerCacheDirectory();
  const links = [...new Set(MINIFLARE_USERS.flatMap(miniflareSourceOf))].map((source) => {
    const executable = path.join(cache, 'chrome', `${platform}-${pinnedBrowserVersion(source)}`, 'chrome-linux64', 'chrome');
    linkExecutable(executable, chromium);
    return executable;
  });
  const setCi = process.getuid?.() === 0 && !process.env.CI;
  if (setCi) process.env.CI = 'true';
  return { executable: chromium, links: [...new Set(links)], setCi };
}

/** Miniflare's name for this platform in its install folder (`linux-<build id>`), on Linux only. */
function browserPlatform(): 'linux' | 'linux_arm' | undefined {
  if (process.platform !== 'linux') return undefined;
  return process.arch === 'arm64' ? 'linux_arm' : 'linux';
}

/**
 * Miniflare's cache on Linux: `xdgAppPaths(".wrangler").cache()`, that is `$XDG_CACHE_HOME/.wrangler`
 * or `~/.cache/.wrangler`.
 */
function wranglerCacheDirectory(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir() || os.tmpdir(), '.cache');
  return path.join(base, '.wrangler');
}

/** The source files of the miniflare that `user` (a package of the project) loads; none when it is not installed. */
function miniflareSourceOf(user: string): string[] {
  try {
    const userRequire = createRequire(createRequire(path.join(PROJECT_ROOT, 'package.json')).resolve(`${user}/package.json`));
    return [userRequire.resolve('miniflare')];
  } catch {
    return [];
  }
}

/**
 * The Chrome build id that the miniflare in `source` runs (`var BROWSER_VERSION = "126.0.6478.182"`),
 * after checking that it still looks for it in wrangler's cache, as `chrome-linux64/chrome`.
 */
function pinnedBrowserVersion(source: string): string {
  const text = readFileSync(source, 'utf8');
  const version = /\bBROWSER_VERSION\s*=\s*"(\d+(?:\.\d+){3})"/.exec(text)?.[1];
  const inWranglerCache = text.includes('xdgAppPaths(".wrangler").cache()') && text.includes('"chrome-linux64", "chrome"');
  if (!version || !inWranglerCache) {
    throw new LocalBrowserError(
      `${source} no longer says which Chrome build it runs (BROWSER_VERSION) or that it looks for it in wrangler's cache as chrome-linux64/chrome; scripts/lib/local-browser.ts needs updating for this miniflare.`,
    );
  }
  return version;
}

/**
 * `executable` -> `chromium`, creating its folder. An existing link to `chromium`, or a real file
 * (a Chrome Miniflare downloaded when it could), stays; a link elsewhere (a Chromium moved) is an
 * error rather than a silent replacement. Another process making the same link at the same time is fine.
 */
function linkExecutable(executable: string, chromium: string): void {
  mkdirSync(path.dirname(executable), { recursive: true });
  const existing = lstatOrUndefined(executable);
  if (existing?.isSymbolicLink()) {
    const target = readlinkSync(executable);
    if (target === chromium) return;
    throw new LocalBrowserError(`${executable} links to ${target}, not ${chromium}; remove it and start again.`);
  }
  if (existing) return;
  try {
    symlinkSync(chromium, executable);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

function lstatOrUndefined(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
