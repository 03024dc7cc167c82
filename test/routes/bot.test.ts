import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { call } from '../helpers/fixtures.ts';

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const OPT_OUT = 'User-agent: ReconBot\nDisallow: /';

/** The page's visible text: tags dropped, the entities the page uses decoded. */
function textOf(page: string): string {
  return page
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('GET /bot', () => {
  it('answers 200 with an HTML page without any key or session', async () => {
    const response = await call('/bot');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(response.headers.get('WWW-Authenticate')).toBeNull();
  });

  it('has a language, a title and one h1', async () => {
    const page = await (await call('/bot')).text();
    expect(page).toMatch(/^<!doctype html>\s*<html lang="en">/i);
    expect(page).toMatch(/<title>[^<]*ReconBot[^<]*<\/title>/);
    expect(page.match(/<h1>/g)).toHaveLength(1);
  });

  it('states the robots.txt opt-out snippet exactly, as a block of its own', async () => {
    const page = await (await call('/bot')).text();
    expect(page).toContain(`<pre><code>${OPT_OUT}</code></pre>`);
  });

  it('says what it reads, how often, how gently and which page-level rules it honours', async () => {
    const text = textOf(await (await call('/bot')).text());
    for (const fact of [
      '/robots.txt first',
      'sitemaps',
      'PDFs',
      'feeds',
      'job board',
      'finishes setting up',
      'watch',
      'If-None-Match',
      'freshness window shared by all customers',
      'At most 2 requests in flight',
      'Crawl-delay',
      'up to 60 seconds',
      'Retry-After',
      '<meta name="robots" content="noindex">',
      'X-Robots-Tag: noindex',
      'nofollow',
    ]) {
      expect(text).toContain(fact);
    }
  });

  it("names the user agent the reads send, with this deployment's own /bot page", async () => {
    const text = textOf(await (await call('/bot')).text());
    expect(text).toMatch(/ReconBot\/\d+(\.\d+)* \(\+https:\/\/recon\.test\/bot\)/);
  });

  it('names SITE_READ_CONTACT_URL in the user agent when the deployment sets one', async () => {
    const configured = { ...env, SITE_READ_CONTACT_URL: 'https://ops.example.com/crawler' };
    const response = await app.fetch(new Request('https://recon.test/bot'), configured, ctx);
    const text = textOf(await response.text());
    expect(text).toMatch(/ReconBot\/[\d.]+ \(\+https:\/\/ops\.example\.com\/crawler\)/);
    expect(text).toContain('https://ops.example.com/crawler');
  });

  it('escapes what the request brings (its host) rather than writing it into the page as markup', async () => {
    // `"` and `'` may stand in a host name as the URL parser reads it, and a client picks its Host header.
    const response = await app.fetch(new Request(`https://x"onmouseover='alert(1)'.test/bot`), env, ctx);
    const page = await response.text();
    expect(response.status).toBe(200);
    expect(page).not.toMatch(/x"onmouseover|'alert/);
    expect(page).toContain('x&quot;onmouseover=&#39;alert%281%29&#39;.test/bot');
  });

  it('loads nothing: a policy that allows no script, style, frame or form', async () => {
    const response = await call('/bot');
    expect(response.headers.get('Content-Security-Policy')).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    expect(await response.text()).not.toMatch(/<script|<style|<iframe|<form|<img/i);
  });

  it('answers HEAD too, without a body', async () => {
    const response = await call('/bot', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('is not the API: a key is neither needed nor looked at', async () => {
    const response = await call('/bot', { key: 'rk_live_not_a_real_key' });
    expect(response.status).toBe(200);
  });
});

describe('GET /bot.txt', () => {
  it('answers the same words as plain text, the snippet indented as code', async () => {
    const response = await call('/bot.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain('    User-agent: ReconBot\n    Disallow: /\n');
    expect(text).toContain('How to keep it out');
    expect(text).not.toMatch(/<(?!meta)[a-z]/);
  });

  it('is named by the page as its plain-text alternate', async () => {
    const page = await (await call('/bot')).text();
    expect(page).toContain('<link rel="alternate" type="text/plain" href="/bot.txt">');
  });
});
