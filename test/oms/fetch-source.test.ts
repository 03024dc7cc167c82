import { afterEach, describe, expect, it } from 'vitest';
import { fetchSource, SOURCE_FETCH, type SourceFetchOptions } from '../../src/oms/fetch-source.ts';
import { fixtureOrigin, fixturePage, loopbackFetch } from '../helpers/fixture-pages.ts';

// Every request goes through loopbackFetch: loopback as it is, pages.example.com (a public-looking
// name, for the production policy) to the same loopback server, anything else refused unsent and
// recorded. Each test ends by checking that nothing was refused.
const PUBLIC_NAME = 'pages.example.com';
let current: ReturnType<typeof loopbackFetch>;

function development(extra: Partial<SourceFetchOptions> = {}): SourceFetchOptions {
  current = loopbackFetch([PUBLIC_NAME]);
  return { allowLocalHttp: true, fetch: current.fetch, ...extra };
}

function production(extra: Partial<SourceFetchOptions> = {}): SourceFetchOptions {
  current = loopbackFetch([PUBLIC_NAME]);
  return { allowLocalHttp: false, fetch: current.fetch, ...extra };
}

const publicPage = (path: string) => `http://${PUBLIC_NAME}${path}`;
const redirectTo = (location: string) => `/to?location=${encodeURIComponent(location)}`;

afterEach(() => {
  expect(current?.refused ?? []).toEqual([]);
});

describe('fetching a page to add it as a source', () => {
  it('reads an HTML page: title, readable text without navigation or scripts, publication date, bytes', async () => {
    const page = await fetchSource(fixturePage('/zephyr-pricing'), development());
    expect(page).toMatchObject({ ok: true, url: fixturePage('/zephyr-pricing'), title: 'Zephyr Robotics pricing & plans', publishedAt: '2026-10-01', truncated: false });
    if (!page.ok) return;
    expect(page.content.split('\n\n')).toEqual([
      'Zephyr Robotics pricing',
      'Fleet plan',
      'Zephyr Robotics charges $4,200 per robot per month for its Fleet plan, billed annually.',
      'The Starter plan costs $900 per robot per month — with no minimum term.',
      'Plan Price',
      'Fleet $4,200',
      'Unlimited missions.',
      '24/7 support & on-site repairs.',
      '© 2026 Zephyr Robotics.',
    ]);
    expect(page.bytes).toBe((await (await fetch(fixturePage('/zephyr-pricing'))).arrayBuffer()).byteLength);
  });

  it('keeps nothing of a script-laden page but its one readable sentence', async () => {
    const page = await fetchSource(fixturePage('/script-laden'), development());
    expect(page).toMatchObject({ ok: true, title: 'Script <heavy> page', content: 'The only readable sentence on this page is this one.' });
  });

  it('takes plain text as it is, and decodes the charset of the Content-Type or of a meta tag', async () => {
    expect(await fetchSource(fixturePage('/plain'), development())).toMatchObject({
      ok: true,
      title: 'Zephyr Robotics release notes',
      content: 'Zephyr Robotics release notes\n\nVersion 7 adds night missions.',
    });
    expect(await fetchSource(fixturePage('/latin1'), development())).toMatchObject({ ok: true, title: 'Café menu', content: 'Café crème costs €4.' });
    expect(await fetchSource(fixturePage('/meta-charset'), development())).toMatchObject({ ok: true, title: 'Menü', content: 'Grüße aus Köln.' });
    expect(await fetchSource(fixturePage('/untitled'), development())).toMatchObject({ ok: true, title: 'A page without a title element says this first.' });
  });

  it('refuses content types other than HTML and plain text, naming the type', async () => {
    for (const [path, type] of [['/pdf', 'application/pdf'], ['/json', 'application/json'], ['/image', 'image/png']]) {
      expect(await fetchSource(fixturePage(path!), development()), path).toEqual({
        ok: false,
        error: `the page is ${type}; only HTML (text/html) and plain text (text/plain) can be added`,
      });
    }
    expect(await fetchSource(fixturePage('/no-type'), development())).toEqual({
      ok: false,
      error: 'the page has no Content-Type; only HTML (text/html) and plain text (text/plain) can be added',
    });
  });

  it('reports an HTTP error status and a page with no readable text', async () => {
    expect(await fetchSource(fixturePage('/not-found'), development())).toEqual({ ok: false, error: 'HTTP 404 Not Found' });
    expect(await fetchSource(fixturePage('/empty'), development())).toMatchObject({ ok: false, error: 'the page has no readable text (scripts, styles and navigation are left out)' });
  });

  it('cuts text over 200,000 characters at a line break and says so', async () => {
    const page = await fetchSource(fixturePage('/long-text'), development());
    expect(page).toMatchObject({ ok: true, truncated: true });
    if (!page.ok) return;
    expect(page.content.length).toBeLessThanOrEqual(200_000);
    expect(page.content.length).toBeGreaterThan(190_000);
    expect(page.content.endsWith('robots.')).toBe(true);
  });
});

describe('bounds on hostile pages', () => {
  it('refuses a page whose Content-Length is over 2 MiB without reading it', async () => {
    expect(await fetchSource(fixturePage('/huge-declared'), development())).toEqual({ ok: false, error: 'the page is 3 MiB (Content-Length); at most 2 MiB is read' });
  });

  it('stops reading an endless page at 2 MiB, long before the server would stop sending', async () => {
    const id = crypto.randomUUID();
    const page = await fetchSource(fixturePage(`/endless?id=${id}`), development());
    expect(page).toEqual({ ok: false, error: 'the page is larger than 2 MiB, the most that is read' });
    // The server sends up to 64 MiB to a client that keeps reading; socket buffers let it get somewhat past 2 MiB.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { sent } = await (await fetch(fixturePage(`/endless-sent/${id}`))).json<{ sent: number }>();
    expect(sent).toBeGreaterThan(SOURCE_FETCH.maxBodyBytes);
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('gives up on a server that never answers, and on a body that trickles, at the deadline', async () => {
    for (const path of ['/hang', '/slow-body']) {
      const started = Date.now();
      expect(await fetchSource(fixturePage(path), development({ timeoutMs: 600 })), path).toEqual({ ok: false, error: 'timed out after 0.6 s' });
      expect(Date.now() - started, path).toBeLessThan(3_000);
    }
  });

  it('follows up to 5 redirects, relative ones resolved against the page, and refuses the sixth', async () => {
    expect(await fetchSource(fixturePage('/chain/5'), development())).toMatchObject({ ok: true, url: fixturePage('/zephyr-pricing') });
    expect(await fetchSource(fixturePage('/relative'), development())).toMatchObject({ ok: true, url: fixturePage('/zephyr-pricing') });
    expect(await fetchSource(fixturePage('/chain/6'), development())).toEqual({
      ok: false,
      error: `more than 5 redirects; the last one pointed to ${fixturePage('/zephyr-pricing')}`,
    });
  });

  it('stops a redirect loop as soon as it comes back to a page it visited', async () => {
    expect(await fetchSource(fixturePage('/loop-a'), development())).toEqual({ ok: false, error: `a redirect loop: ${fixturePage('/loop-a')} was already visited` });
    expect(await fetchSource(fixturePage('/self'), development())).toEqual({ ok: false, error: `a redirect loop: ${fixturePage('/self')} was already visited` });
    expect(current.requested).toEqual([fixturePage('/self')]);
    expect(await fetchSource(fixturePage('/no-location'), development())).toEqual({ ok: false, error: 'HTTP 302 without a Location to follow' });
  });
});

describe('redirects are checked like the first URL', () => {
  /** Locations a public page may answer that must never be fetched: [Location, a phrase of the error]. */
  const REFUSED: Array<[string, string]> = [
    ['http://10.0.0.1/admin', 'not 10.0.0.1 (a private address)'],
    ['http://192.168.1.1/', 'not 192.168.1.1 (a private address)'],
    ['http://169.254.169.254/latest/meta-data/', 'not 169.254.169.254 (a link-local address)'],
    ['http://2852039166/latest/meta-data/', 'not 169.254.169.254 (a link-local address)'],
    ['http://0xa9.0xfe.0xa9.0xfe/', 'not 169.254.169.254 (a link-local address)'],
    ['http://[::ffff:169.254.169.254]/', 'not [::ffff:a9fe:a9fe] (a link-local address)'],
    ['http://[fd00:ec2::254]/', 'a unique-local address'],
    ['http://[fe80::1]/', 'a link-local address'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'a local or internal name'],
    ['http://127.0.0.1/', 'not 127.0.0.1 (a loopback address)'],
    ['http://2130706433/', 'not 127.0.0.1 (a loopback address)'],
    ['http://localhost/', 'not localhost (a local or internal name'],
    ['http://[::1]/', 'not [::1] (the loopback address)'],
    ['file:///etc/passwd', 'must use http or https, not file'],
    ['ftp://files.example.com/', 'must use http or https, not ftp'],
    ['gopher://pages.example.com/', 'must use http or https, not gopher'],
    ['http://user:secret@pages.example.com/zephyr-pricing', 'must not carry a user name or password'],
  ];

  it(`in production, a public page redirecting to a refused address or scheme is not followed (${REFUSED.length} cases)`, async () => {
    for (const [location, phrase] of REFUSED) {
      const options = production();
      const page = await fetchSource(publicPage(redirectTo(location)), options);
      expect(page.ok, location).toBe(false);
      if (!page.ok) {
        expect(page.error, location).toMatch(/^the redirect to .+ was not followed: the URL must /);
        expect(page.error, location).toContain(phrase);
      }
      // Only the first page was requested.
      expect(current.requested, location).toEqual([publicPage(redirectTo(location))]);
      expect(current.refused, location).toEqual([]);
    }
  });

  it('in production, a public page redirecting to another public page is followed', async () => {
    const page = await fetchSource(publicPage(redirectTo('/chain/2')), production());
    expect(page).toMatchObject({ ok: true, url: publicPage('/zephyr-pricing'), title: 'Zephyr Robotics pricing & plans' });
    expect(current.requested).toEqual([publicPage(redirectTo('/chain/2')), publicPage('/chain/2'), publicPage('/chain/1'), publicPage('/zephyr-pricing')]);
  });

  it('in development, a local page may redirect to another local page, never to a private or other loopback address', async () => {
    expect(await fetchSource(fixturePage(redirectTo(fixturePage('/plain'))), development())).toMatchObject({ ok: true, url: fixturePage('/plain') });
    const other = new URL(fixtureOrigin());
    other.hostname = '127.0.0.2';
    for (const location of ['http://10.0.0.1/', 'http://169.254.169.254/', other.href]) {
      const page = await fetchSource(fixturePage(redirectTo(location)), development());
      expect(page, location).toMatchObject({ ok: false, error: expect.stringContaining('was not followed: the URL must point at a public address') });
      expect(current.requested, location).toHaveLength(1);
    }
  });
});
