/**
 * A small stand-in for a browser in the Workers pool: it keeps cookies, sends forms the way a
 * browser does (urlencoded, with this site's Origin and Sec-Fetch-Site), and reads pages as text.
 * Each Browser has its own client address, so sign-in throttling never mixes tests.
 */
import { env, exports } from 'cloudflare:workers';
import { FINISHED_PROFILE } from '../helpers/fixtures.ts';

export const ORIGIN = 'https://recon.test';

function freshAddress(): string {
  const [a, b, c] = crypto.getRandomValues(new Uint8Array(3));
  return `10.${a}.${b}.${c}`;
}

export class Browser {
  readonly cookies = new Map<string, string>();
  readonly address = freshAddress();

  async request(path: string, init: { method?: string; form?: Record<string, string | string[]>; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('CF-Connecting-IP', this.address);
    if (this.cookies.size) headers.set('Cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    let body: string | undefined;
    if (init.form) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(init.form)) for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
      body = params.toString();
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/x-www-form-urlencoded');
      if (!headers.has('Origin') && !init.headers?.['Origin']) headers.set('Origin', ORIGIN);
      if (!headers.has('Sec-Fetch-Site')) headers.set('Sec-Fetch-Site', 'same-origin');
    }
    const url = path.startsWith('http') ? path : `${ORIGIN}${path}`;
    const response = await exports.default.fetch(new Request(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' }));
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0|expires=Thu, 01 Jan 1970/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get(path: string, headers?: Record<string, string>): Promise<Response> {
    return this.request(path, { headers });
  }

  post(path: string, form: Record<string, string | string[]> = {}, headers?: Record<string, string>): Promise<Response> {
    return this.request(path, { form, headers });
  }

  /** The session cookie's token, if any. */
  get sessionToken(): string | undefined {
    return this.cookies.get('__Host-recon_session');
  }
}

let counter = 0;
export function uniqueEmail(): string {
  return `person-${Date.now().toString(36)}-${(counter++).toString(36)}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

export const PASSWORD = 'correct horse battery staple';

/** Signs up a new organization in `browser`; answers the email used. */
export async function signUp(browser: Browser, options: { organizationName?: string; email?: string } = {}): Promise<{ email: string; response: Response }> {
  const email = options.email ?? uniqueEmail();
  const response = await browser.post('/dashboard/sign-up', {
    organizationName: options.organizationName ?? 'Initech Labs',
    name: 'Ada Lovelace',
    email,
    password: PASSWORD,
  });
  return { email, response };
}

/** The profile form's fields for FINISHED_PROFILE. */
export function finishedProfileForm(): Record<string, string> {
  const p = FINISHED_PROFILE;
  return {
    companyName: p.companyName!,
    domain: p.domain!,
    offering: p.offering!,
    'icp.industries': p.icp.industries.join('\n'),
    'icp.companySizes': p.icp.companySizes.join('\n'),
    'icp.regions': p.icp.regions.join('\n'),
    'icp.personas': p.icp.personas.join('\n'),
    competitors: p.competitors.join('\n'),
    valueProps: p.valueProps.join('\n'),
  };
}

/** The full key a key page shows once. */
export function shownKey(html: string): string | undefined {
  return /<code id="new-key">(rk_live_[A-Za-z0-9]+)<\/code>/.exec(html)?.[1];
}

/** The organization the browser's session belongs to. */
export async function organizationOf(browser: Browser): Promise<{ id: string; slug: string }> {
  const token = browser.sessionToken;
  if (!token) throw new Error('not signed in');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const row = await env.DB.prepare('SELECT o.id, o.slug FROM sessions s JOIN organizations o ON o.id = s.organization_id WHERE s.token_hash = ?').bind(hash).first<{ id: string; slug: string }>();
  if (!row) throw new Error('no session row');
  return row;
}

export async function count(sql: string, ...params: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql).bind(...params).first<{ n: number }>();
  return row?.n ?? 0;
}
