import { exports } from 'cloudflare:workers';
import { beforeAll } from 'vitest';
import { changedTables, snapshot, type Snapshot } from './snapshot.ts';
import { buildWorld, freshKey, type World } from './world.ts';

/** A request as the property tests build it: everything but the key, which the probe adds. */
export interface HostileRequest {
  method: string;
  /** Path and query, already encoded. */
  target: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Send this Authorization instead of the probe's key (`null`: none at all). */
  authorization?: string | null;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** Tables that changed while the request ran. */
  changed: string[];
}

/** Header values are sent as printable ASCII (what every HTTP client sends); anything else is dropped. */
export function headerSafe(value: string): string {
  return [...value].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) < 0x7f).join('');
}

/** Percent-encodes every byte of the UTF-8 of `value` but unreserved characters (a lone surrogate becomes U+FFFD, as a client's encoder makes it). */
export function percentEncode(value: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(value)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A value quoted for a failure message: JSON-escaped (no lone surrogate reaches the test runner's socket) and cut to `max` characters. */
export function shown(value: unknown, max = 300): string {
  const text = typeof value === 'string' ? value : value instanceof Uint8Array ? `<${value.byteLength} bytes>` : String(value);
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}...(${text.length} chars)` : text);
}

let address = 0;
/** A client address of its own per request: the failed-key throttle counts per address. */
function nextAddress(): string {
  address += 1;
  return `198.19.${(address >> 8) & 0xff}.${address & 0xff}`;
}

/**
 * Sends hostile requests to the Worker with a key of the world's organization, and snapshots D1
 * around each one so the caller can check that a refused request wrote nothing. A new key every
 * KEY_ROTATION requests keeps each under its rate limits (60 commands a minute), so the checks
 * behind the rate limit are reached too.
 */
export class Probe {
  static readonly KEY_ROTATION = 40;
  private key = '';
  private sent = 0;
  private last: Snapshot | undefined;

  constructor(private readonly world: World) {}

  /** The key the next request will carry. */
  async currentKey(): Promise<string> {
    if (!this.key || this.sent % Probe.KEY_ROTATION === 0) {
      this.key = await freshKey(this.world);
      this.last = undefined;
    }
    return this.key;
  }

  async send(request: HostileRequest): Promise<Answer> {
    const key = await this.currentKey();
    this.last ??= await snapshot();
    const before = this.last;
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, headerSafe(value));
    if (request.authorization !== undefined) {
      if (request.authorization !== null) headers.set('Authorization', headerSafe(request.authorization));
    } else headers.set('Authorization', `Bearer ${key}`);
    if (!headers.has('CF-Connecting-IP')) headers.set('CF-Connecting-IP', nextAddress());
    const hasBody = request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
    this.sent += 1;
    const response = await exports.default.fetch(
      new Request(`https://recon.test${request.target}`, { method: request.method, headers, body: hasBody ? request.body : undefined }),
    );
    const text = await response.text();
    const after = await snapshot();
    this.last = after;
    return { status: response.status, contentType: (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase(), text, changed: changedTables(before, after) };
  }
}

/** The URL strings inside a value with their hosts moved under `.invalid`: a generated public URL never reaches the Internet. */
export function offline(value: unknown, depth = 0): unknown {
  if (depth > 64) return null;
  if (typeof value === 'string') {
    if (!/^\s*https?:\/\//i.test(value)) return value;
    try {
      const url = new URL(value.trim());
      if (/^(localhost|127\.|\[)/.test(url.hostname) || /^\d+(\.\d+){0,3}$/.test(url.hostname) || url.hostname.endsWith('.invalid')) return value;
      url.hostname = `${url.hostname}.invalid`;
      return url.toString();
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((item) => offline(item, depth + 1));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(copy, k, { value: offline(v, depth + 1), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}

/**
 * Body text whose watch can never be valid, so none starts (a watch's first execution would write
 * while later requests are measured): it names no company of the world, and every `"key"` string in
 * it (a target's) is made one that is no domain, since a watch on any domain is valid (it creates the
 * company). Textual, so a duplicate key or a malformed body stays as it was generated.
 */
export function noExistingTarget(text: string): string {
  return text.replace(/acme|globex/gi, 'absnt').replace(/("key"\s*:\s*")((?:[^"\\]|\\.)*)"/g, '$1$2 is not a domain"');
}

/** A suite's world and its probe, built before the suite's tests: read them in tests as `suite.world`, `suite.probe`. */
export function probedWorld(): { readonly world: World; readonly probe: Probe } {
  const suite = {} as { world: World; probe: Probe };
  beforeAll(async () => {
    suite.world = await buildWorld();
    suite.probe = new Probe(suite.world);
  });
  return suite;
}
