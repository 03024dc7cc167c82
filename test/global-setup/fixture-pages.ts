/**
 * A web server on loopback (127.0.0.1, a free port) serving the pages that sources are added from in
 * the Workers-pool tests: readable ones and hostile ones (huge, endless, slow, script-laden, redirect
 * loops and chains, redirects to refused addresses, wrong content types). Started once per run by
 * vitest (globalSetup of the workers project); tests read its origin with `inject('fixturePagesOrigin')`
 * (test/helpers/fixture-pages.ts). It listens on 127.0.0.1 only and never makes a request itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    fixturePagesOrigin: string;
  }
}

const MiB = 1024 * 1024;

/** Bytes each /endless request managed to send before the client stopped reading, by its `id`. */
const endlessSent = new Map<string, number>();
/** /batch/<id>/<n>: requests in flight now and at most, per id. */
const inFlight = new Map<string, { now: number; max: number }>();
/** Bodies of /mutable/<name>, set by PUT. */
const mutable = new Map<string, string>();

const html = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

const ZEPHYR_PRICING = html(
  'Zephyr Robotics pricing &amp; plans',
  `<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> Navigation text that must not be imported.</nav>
   <header><h1>Zephyr Robotics pricing</h1></header>
   <main>
     <h2>Fleet plan</h2>
     <p>Zephyr Robotics charges $4,200 per robot per month for its Fleet plan, billed annually.</p>
     <p>The Starter plan costs $900 per robot per month &mdash; with no minimum term.</p>
     <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Fleet</td><td>$4,200</td></tr></table>
     <ul><li>Unlimited missions.</li><li>24/7 support &amp; on-site repairs.</li></ul>
   </main>
   <script>window.tracking = "Zephyr tracking script that must not be imported.";</script>
   <footer><p>&copy; 2026 Zephyr Robotics.</p></footer>`,
  '<meta property="article:published_time" content="2026-10-01T09:00:00Z"><style>p { color: red } /* style text must not be imported */</style>',
);

const SCRIPT_LADEN = html(
  'Script &lt;heavy&gt; page',
  `<script>document.write("<p>Injected paragraph that must not be imported.</p>");</script>
   <script type="application/ld+json">{"@type":"Article","headline":"JSON-LD that must not be imported"}</script>
   <noscript><p>Noscript text that must not be imported.</p></noscript>
   <template><p>Template text that must not be imported.</p></template>
   <svg viewBox="0 0 10 10"><title>SVG title that must not be imported</title><text>SVG text that must not be imported</text></svg>
   <div hidden><p>Hidden text that must not be imported.</p></div>
   <span aria-hidden="true">Decorative text that must not be imported.</span>
   <!-- <p>Comment text that must not be imported.</p> -->
   <iframe src="https://example.com">Frame text that must not be imported.</iframe>
   <button onclick="alert(1)">Button text that must not be imported.</button>
   ${`<script>var x = "${'padding </p> <p> '.repeat(2000)}";</script>`.repeat(20)}
   <p onclick="steal()">The only readable sentence on this page is this one.</p>
   <style>.a::after { content: "Style text that must not be imported." }</style>`,
);

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

/**
 * Pages only a browser reads (test/sites/render.test.ts): client-rendered pages whose scripts write
 * their text. Each takes `?id=<test id>` and passes it on to what its scripts request, so that
 * /render-hits/<id> tells the test what the browser requested (path and query of each request;
 * with `?agents`, the User-Agent of each).
 */
const renderHits = new Map<string, { hit: string; agent: string }[]>();

/** A client-rendered page: `root` in an empty-ish #root, and `script` (a path of this server) as its bundle, given the page's query. */
const clientRendered = (title: string, script: string, root = '') =>
  html(title, `<div id="root">${root}</div><noscript>You need to enable JavaScript to run this app.</noscript><script>
    const s = document.createElement('script'); s.src = ${JSON.stringify(script)} + location.search; document.body.appendChild(s);
  </script>`);

/** The scripts of the client-rendered pages, by path; `OTHER_ORIGIN` is this server under another name (localhost). */
const RENDER_SCRIPTS: Record<string, string> = {
  // Fetches its price from its own origin and writes it into #root.
  '/render/app.js': `fetch('/api/prices.json' + location.search).then((r) => r.json()).then((p) => {
    document.getElementById('root').innerHTML = '<h1>Zephyr pricing</h1><p>The ' + p.plan + ' plan costs ' + p.price + ' per robot per month.</p>';
  });`,
  // An image from another origin and one from its own (both refused), a fetch to another origin, then its text.
  '/render/images.js': `const id = location.search;
    for (const src of ['OTHER_ORIGIN/render/pixel.png' + id, '/render/pixel.png' + id]) { const img = new Image(); img.src = src; document.body.appendChild(img); }
    fetch('OTHER_ORIGIN/api/prices.json' + id).catch(() => {});
    document.getElementById('root').innerHTML = '<p>Zephyr robots map warehouses without help from anyone.</p>';`,
  // Writes its text, then polls its origin forever: the network is never idle.
  '/render/poll.js': `document.getElementById('root').innerHTML = '<p>Zephyr live fleet status: still polling.</p>';
    const poll = () => fetch('/render/poll' + location.search).then(poll, poll); poll();`,
  // Refused by the test's robots.txt: its text must never appear.
  '/render/private/app.js': `document.getElementById('root').innerHTML = '<p>Private text written by a disallowed script.</p>';`,
};

const RENDER_ROUTES: Record<string, Handler> = {
  '/render/prices': (_, res) => send(res, 200, 'text/html', clientRendered('Zephyr pricing', '/render/app.js')),
  '/render/images': (_, res) => send(res, 200, 'text/html', clientRendered('Zephyr', '/render/images.js')),
  '/render/never-settles': (_, res) => send(res, 200, 'text/html', clientRendered('Zephyr fleet', '/render/poll.js')),
  '/render/robots': (_, res) => send(res, 200, 'text/html', clientRendered('Zephyr private', '/render/private/app.js', '<p>Loading</p>')),
  // Each poll is answered after 300 ms, and the page polls again at once: always one in flight.
  '/render/poll': (_, res) => void setTimeout(() => send(res, 200, 'application/json', '{"robots":12}'), 300),
  '/render/pixel.png': (_, res) => send(res, 200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47])),
  '/api/prices.json': (_, res) => send(res, 200, 'application/json', JSON.stringify({ plan: 'Fleet', price: '$1,450' })),
  ...Object.fromEntries(
    Object.entries(RENDER_SCRIPTS).map(([path, script]): [string, Handler] => [
      path,
      (request, res) => send(res, 200, 'text/javascript', script.replaceAll('OTHER_ORIGIN', `http://localhost:${request.socket.localPort}`)),
    ]),
  ),
};

/** Records a request of a render page under its `?id`, or answers /render-hits/<id>: then true. */
function renderHitsRoute(request: IncomingMessage, response: ServerResponse, url: URL): boolean {
  const asked = /^\/render-hits\/(.+)$/.exec(url.pathname);
  if (asked) {
    const key = url.searchParams.has('agents') ? 'agent' : 'hit';
    send(response, 200, 'application/json', JSON.stringify((renderHits.get(asked[1]!) ?? []).map((entry) => entry[key])));
    return true;
  }
  const id = url.searchParams.get('id');
  if (id && RENDER_ROUTES[url.pathname]) {
    const entry = { hit: `${url.pathname}${url.search}`, agent: String(request.headers['user-agent']).slice(0, 300) };
    renderHits.set(id, [...(renderHits.get(id) ?? []), entry].slice(-1_000));
  }
  return false;
}

const ROUTES: Record<string, Handler> = {
  '/zephyr-pricing': (_, res) => send(res, 200, 'text/html; charset=utf-8', ZEPHYR_PRICING),
  '/script-laden': (_, res) => send(res, 200, 'text/html', SCRIPT_LADEN),
  '/plain': (_, res) => send(res, 200, 'text/plain; charset=utf-8', 'Zephyr Robotics release notes\r\n\r\nVersion 7 adds night missions.\r\n'),
  '/latin1': (_, res) => send(res, 200, 'text/html; charset=windows-1252', Buffer.from(html('Caf\xe9 menu', '<p>Caf\xe9 cr\xe8me costs \x804.</p>'), 'latin1')),
  '/meta-charset': (_, res) =>
    send(res, 200, 'text/html', Buffer.from('<html><head><meta charset="iso-8859-1"><title>Men\xfc</title></head><body><p>Gr\xfc\xdfe aus K\xf6ln.</p></body></html>', 'latin1')),
  '/untitled': (_, res) => send(res, 200, 'text/html', '<p>A page without a title element says this first.</p><p>Then this.</p>'),
  '/empty': (_, res) => send(res, 200, 'text/html', html('Nothing here', '<script>app()</script><nav>Menu</nav>')),
  '/long-text': (_, res) => {
    const paragraph = `<p>${'This sentence is part of a very long page about robots. '.repeat(20)}</p>`;
    send(res, 200, 'text/html', html('A long page', paragraph.repeat(300)));
  },
  '/huge-declared': (_, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(3 * MiB) });
    res.end(Buffer.alloc(3 * MiB, 'a'));
  },
  '/endless': (request, res, url) => {
    // Chunked, no Content-Length: writes 64 KiB chunks of HTML for as long as the client reads, up to 64 MiB.
    const id = url.searchParams.get('id') ?? '';
    const chunk = Buffer.from(`<p>${'Endless text. '.repeat(4675)}</p>\n`.slice(0, 64 * 1024));
    let sent = 0;
    res.writeHead(200, { 'content-type': 'text/html' });
    const pump = () => {
      while (sent < 64 * MiB && !res.destroyed) {
        sent += chunk.length;
        endlessSent.set(id, sent);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    request.socket.on('close', () => endlessSent.set(id, sent));
    pump();
  },
  '/hang': () => {
    // Never answers.
  },
  '/slow-body': (_, res) => {
    // Headers and the start of a page at once, then one byte every 200 ms, for a minute.
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><body><p>Slow');
    let ticks = 0;
    const timer = setInterval(() => {
      if (res.destroyed || ++ticks > 300) {
        clearInterval(timer);
        res.end();
        return;
      }
      res.write('.');
    }, 200);
    res.on('close', () => clearInterval(timer));
  },
  '/pdf': (_, res) => send(res, 200, 'application/pdf', '%PDF-1.7 not really'),
  '/json': (_, res) => send(res, 200, 'application/json', '{"text":"Zephyr"}'),
  '/image': (_, res) => send(res, 200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47])),
  '/no-type': (_, res) => {
    res.writeHead(200);
    res.end('<p>No content type at all, though this is a sentence.</p>');
  },
  '/not-found': (_, res) => send(res, 404, 'text/html', html('Not found', '<p>No such page.</p>')),
  '/loop-a': (_, res) => redirect(res, 302, '/loop-b'),
  '/loop-b': (_, res) => redirect(res, 301, '/loop-a'),
  '/self': (_, res) => redirect(res, 307, '/self'),
  '/no-location': (_, res) => {
    res.writeHead(302);
    res.end();
  },
  '/relative': (_, res) => redirect(res, 308, 'zephyr-pricing#plans'),
  // /to?location=<Location> answers 302 with that Location, whatever it is.
  '/to': (_, res, url) => redirect(res, 302, url.searchParams.get('location') ?? '/'),
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location, 'content-type': 'text/html' });
  res.end(`<p>Moved to ${location}</p>`);
}

function route(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://fixture.invalid');
  const path = url.pathname;
  // /chain/<n>: n redirects (to /chain/<n-1>, ..., /chain/1), the last to the Zephyr pricing page.
  const chain = /^\/chain\/(\d+)$/.exec(path);
  if (chain) return redirect(response, 302, Number(chain[1]) > 1 ? `/chain/${Number(chain[1]) - 1}` : '/zephyr-pricing');
  // /endless-sent/<id>: what /endless?id=<id> sent, as JSON.
  const sent = /^\/endless-sent\/(.+)$/.exec(path);
  if (sent) return send(response, 200, 'application/json', JSON.stringify({ sent: endlessSent.get(sent[1]!) ?? null }));
  // /batch/<id>/<n>: a page that takes 150 ms, counting how many of its id are in flight; /batch-stats/<id>: the most at once.
  const batch = /^\/batch\/([^/]+)\/(\d+)$/.exec(path);
  if (batch) {
    const stats = inFlight.get(batch[1]!) ?? { now: 0, max: 0 };
    inFlight.set(batch[1]!, stats);
    stats.now++;
    stats.max = Math.max(stats.max, stats.now);
    setTimeout(() => {
      stats.now--;
      send(response, 200, 'text/html', html(`Batch page ${batch[2]}`, `<p>This is page number ${batch[2]} of the batch.</p>`));
    }, 150);
    return;
  }
  const batchStats = /^\/batch-stats\/([^/]+)$/.exec(path);
  if (batchStats) return send(response, 200, 'application/json', JSON.stringify(inFlight.get(batchStats[1]!) ?? null));
  // /mutable/<name>: PUT sets its HTML, GET serves it.
  const editable = /^\/mutable\/(.+)$/.exec(path);
  if (editable) {
    if (request.method === 'PUT') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        mutable.set(editable[1]!, Buffer.concat(chunks).toString('utf8'));
        send(response, 204, 'text/plain', '');
      });
      return;
    }
    const body = mutable.get(editable[1]!);
    return body === undefined ? send(response, 404, 'text/plain', 'unset') : send(response, 200, 'text/html', body);
  }
  if (renderHitsRoute(request, response, url)) return;
  const handler = ROUTES[path] ?? RENDER_ROUTES[path];
  if (handler) return handler(request, response, url);
  send(response, 404, 'text/plain', 'no such fixture');
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('fixturePagesOrigin', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
