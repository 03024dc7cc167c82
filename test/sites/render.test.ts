import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_REQUESTS_PER_PAGE, needsBrowser, refusal, renderPage, type RenderedPage } from '../../src/sites/render.ts';
import { fixtureOrigin, fixturePage } from '../helpers/fixture-pages.ts';

// renderPage runs a real Chromium: Miniflare's local Browser Rendering started on Debian's
// /usr/bin/chromium (scripts/lib/local-browser.ts, called by vitest.config.ts), loading pages of the
// loopback fixture server (test/global-setup/fixture-pages.ts).

const USER_AGENT = 'ReconBot/1.1 (+https://recon.test/bot)';
/** Generous: a page on a loaded two-core machine takes seconds to load and settle (the browser's start is not counted). */
const DEADLINE_MS = 20_000;

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const BUNDLE = '<script type="module" src="/assets/index-4f9a1c.js"></script>';

describe('needsBrowser', () => {
  it('says no for a server-rendered page with its text, scripts and mount point notwithstanding', () => {
    const text = 'Zephyr Robotics charges $4,200 per robot per month for its Fleet plan, billed annually. '.repeat(4);
    const html = page('Pricing', `<div id="__next"><main><h1>Pricing</h1><p>${text}</p></main></div><script src="/_next/static/chunks/main.js"></script>`);
    expect(needsBrowser(html, `Pricing ${text}`)).toBe(false);
  });

  it('says yes for an empty root and a script bundle', () => {
    expect(needsBrowser(page('Zephyr', `<div id="root"></div>${BUNDLE}`), '')).toBe(true);
    expect(needsBrowser(page('Zephyr', `<div id="app" class="shell"></div>${BUNDLE}`), 'Zephyr')).toBe(true);
    expect(needsBrowser(page('Zephyr', `<div data-reactroot=""><span>Loading...</span></div>${BUNDLE}`), 'Loading...')).toBe(true);
    expect(needsBrowser(page('Zephyr', `<div id="__nuxt"><div>Zephyr Robotics is loading</div></div>${BUNDLE}`), 'Zephyr Robotics is loading')).toBe(true);
  });

  it('says yes for a page whose only message is a noscript asking for JavaScript', () => {
    expect(needsBrowser(page('Zephyr', '<noscript><p>You need to enable JavaScript to run this app.</p></noscript>'), '')).toBe(true);
  });

  it('says no for a short but real page without scripts', () => {
    expect(needsBrowser(page('Contact', '<div id="root"><p>Call Zephyr on +1 555 0100.</p></div>'), 'Contact Call Zephyr on +1 555 0100.')).toBe(false);
    expect(needsBrowser(page('Contact', '<p>Write to hello@zephyr.example.</p>'), 'Contact Write to hello@zephyr.example.')).toBe(false);
  });

  it('does not take JSON-LD for a script, and says no for a page with a little text and no sign of an application', () => {
    expect(needsBrowser(page('Jobs', '<script type="application/ld+json">{}</script><p>No open positions.</p>'), 'Jobs No open positions.')).toBe(false);
    expect(needsBrowser(page('Jobs', `<p>We have no open positions right now.</p>${BUNDLE}`), 'Jobs We have no open positions right now.')).toBe(false);
  });

  it('looks at a bounded head of a huge page', () => {
    const huge = page('Huge', `<div id="root"></div>${BUNDLE}${'<p>x</p>'.repeat(200_000)}`);
    expect(needsBrowser(huge, '')).toBe(true);
  });
});

describe('refusal', () => {
  const fence = (allowRequest?: (url: string) => boolean, requests = 0) => ({ origin: 'http://127.0.0.1:9000', publicOrigin: 'https://zephyr.example', allowRequest, requests });

  it('lets the own origin fetch documents, scripts and data, and asks robots.txt with the public URL', () => {
    const asked: string[] = [];
    const robots = (url: string) => (asked.push(url), true);
    for (const type of ['document', 'script', 'xhr', 'fetch']) expect(refusal('http://127.0.0.1:9000/a.js?v=1', type, fence(robots))).toBeUndefined();
    expect(asked).toEqual(Array(4).fill('https://zephyr.example/a.js?v=1'));
  });

  it('refuses images, fonts, media, stylesheets, other origins, robots.txt and requests past the budget', () => {
    for (const type of ['image', 'font', 'media', 'stylesheet', 'ping', 'other', 'eventsource']) expect(refusal('http://127.0.0.1:9000/x', type, fence())).toBeDefined();
    expect(refusal('http://localhost:9000/x.js', 'script', fence())).toBe('another origin');
    expect(refusal('https://cdn.example/x.js', 'script', fence())).toBe('another origin');
    expect(refusal('not a url', 'script', fence())).toBe('another origin');
    expect(refusal('http://127.0.0.1:9000/private/x.js', 'script', fence((url) => !url.includes('/private/')))).toBe('robots.txt');
    expect(refusal('http://127.0.0.1:9000/x.js', 'script', fence(undefined, MAX_REQUESTS_PER_PAGE))).toMatch(/more than/);
  });
});

/** What the browser requested of the fixture server for test `id` (path and query). */
async function hits(id: string): Promise<string[]> {
  return (await fetch(`${fixtureOrigin()}/render-hits/${id}`)).json();
}

function rendered(result: RenderedPage): Extract<RenderedPage, { ok: true }> {
  if (!result.ok) throw new Error(`expected a rendered page, got: ${result.reason}`);
  return result;
}

describe('renderPage', () => {
  it('renders a client-rendered page whose script fetches its price from its own origin', async () => {
    const result = rendered(await renderPage(env.BROWSER, fixturePage('/render/prices?id=prices'), { deadlineMs: DEADLINE_MS, userAgent: USER_AGENT }));
    expect(result.html).toContain('The Fleet plan costs $1,450 per robot per month.');
    expect(result.url).toBe(fixturePage('/render/prices?id=prices'));
    expect(result.ms).toBeGreaterThan(0);
    expect(await hits('prices')).toEqual(['/render/prices?id=prices', '/render/app.js?id=prices', '/api/prices.json?id=prices']);
    console.log(`rendered /render/prices in ${result.ms} ms`);
  });

  it('loads fetchUrl (the loopback origin of an override) while robots.txt and the result name the public URL', async () => {
    const asked: string[] = [];
    const result = rendered(
      await renderPage(env.BROWSER, 'https://zephyr.example/render/prices?id=public', {
        fetchUrl: fixturePage('/render/prices?id=public'),
        deadlineMs: DEADLINE_MS,
        userAgent: USER_AGENT,
        allowRequest: (url) => (asked.push(url), true),
      }),
    );
    expect(result.html).toContain('The Fleet plan costs $1,450 per robot per month.');
    expect(result.url).toBe('https://zephyr.example/render/prices?id=public');
    expect(asked).toEqual(['https://zephyr.example/render/prices?id=public', 'https://zephyr.example/render/app.js?id=public', 'https://zephyr.example/api/prices.json?id=public']);
  });

  it('aborts images (from any origin) and requests to another origin, and still renders the text', async () => {
    const result = rendered(await renderPage(env.BROWSER, fixturePage('/render/images?id=images'), { deadlineMs: DEADLINE_MS, userAgent: USER_AGENT }));
    expect(result.html).toContain('Zephyr robots map warehouses without help from anyone.');
    // The other origin (localhost) is this very server: had the image or the fetch gone out, it would be listed.
    expect(await hits('images')).toEqual(['/render/images?id=images', '/render/images.js?id=images']);
  });

  it('ends a page that never settles at the deadline, with what it shows then', async () => {
    const deadlineMs = 5_000;
    const result = rendered(await renderPage(env.BROWSER, fixturePage('/render/never-settles?id=poll'), { deadlineMs, userAgent: USER_AGENT }));
    expect(result.html).toContain('Zephyr live fleet status: still polling.');
    // The network was never idle, so only the deadline (less the time kept for reading) ended the wait.
    expect(result.ms).toBeGreaterThanOrEqual(deadlineMs - 2_000);
    expect(result.ms).toBeLessThan(deadlineMs + 2_000);
    const polls = (await hits('poll')).filter((hit) => hit.startsWith('/render/poll?'));
    expect(polls.length).toBeGreaterThan(1);
    expect(polls.length).toBeLessThanOrEqual(MAX_REQUESTS_PER_PAGE);
  });

  it('never requests a script robots.txt disallows; the page renders without it', async () => {
    const asked: string[] = [];
    const allowRequest = (url: string) => (asked.push(url), !new URL(url).pathname.startsWith('/render/private/'));
    const result = rendered(await renderPage(env.BROWSER, fixturePage('/render/robots?id=robots'), { deadlineMs: DEADLINE_MS, userAgent: USER_AGENT, allowRequest }));
    expect(result.html).toContain('Loading');
    expect(result.html).not.toContain('Private text written by a disallowed script.');
    expect(asked).toContain(fixturePage('/render/private/app.js?id=robots'));
    expect(await hits('robots')).toEqual(['/render/robots?id=robots']);
  });

  it('fails when the document is refused, answers an error, or never arrives by the deadline', async () => {
    const refused = await renderPage(env.BROWSER, fixturePage('/render/prices?id=refused'), { deadlineMs: DEADLINE_MS, userAgent: USER_AGENT, allowRequest: () => false });
    expect(refused).toMatchObject({ ok: false, reason: expect.stringMatching(/did not load/) });
    expect(await hits('refused')).toEqual([]);

    expect(await renderPage(env.BROWSER, fixturePage('/not-found'), { deadlineMs: DEADLINE_MS, userAgent: USER_AGENT })).toEqual({ ok: false, reason: 'the page answered HTTP 404' });

    const hanging = await renderPage(env.BROWSER, fixturePage('/hang'), { deadlineMs: 4_000, userAgent: USER_AGENT });
    expect(hanging).toMatchObject({ ok: false, reason: expect.stringMatching(/did not load within/) });

    expect(await renderPage(env.BROWSER, 'ftp://zephyr.example/', { deadlineMs: DEADLINE_MS, userAgent: USER_AGENT })).toEqual({ ok: false, reason: 'not an http(s) URL' });
  });

  it('sends the user agent it is given with every request', async () => {
    rendered(await renderPage(env.BROWSER, fixturePage('/render/prices?id=agent'), { deadlineMs: DEADLINE_MS, userAgent: USER_AGENT }));
    expect(await (await fetch(`${fixtureOrigin()}/render-hits/agent?agents`)).json()).toEqual([USER_AGENT, USER_AGENT, USER_AGENT]);
  });
});
