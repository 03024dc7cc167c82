/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { toDomainError } from '../ground/errors.ts';
import { ONBOARDING_PATH, KEY_SETTINGS_PATH } from '../ground/dashboard-paths.ts';
import { assets } from './assets.ts';
import type { DashboardEnv } from './env.ts';
import { renderer } from './layout.tsx';
import { dashboardHeaders, requireHttps } from './middleware.ts';
import { account } from './pages/account.tsx';
import { approvals } from './pages/approvals.tsx';
import { briefs } from './pages/briefs.tsx';
import { changes } from './pages/changes.tsx';
import { connections } from './pages/connections.tsx';
import { consent } from './pages/consent.tsx';
import { home } from './pages/home.tsx';
import { keys } from './pages/keys.tsx';
import { objects } from './pages/objects.tsx';
import { onboarding } from './pages/onboarding.tsx';
import { research } from './pages/research.tsx';
import { runs } from './pages/runs.tsx';
import { team } from './pages/team.tsx';
import { watches } from './pages/watches.tsx';
import { loadSession, requireSession } from './session.ts';

/**
 * The dashboard at /dashboard: server-rendered pages (hono/jsx) for people, in the same Worker.
 *
 * Every request passes, in order: requireHttps (plain http on loopback only), the security headers
 * and no-store, a 64 KiB body limit, hono's CSRF check (a form post must come from this origin, by
 * Origin or Sec-Fetch-Site; else 403 before any handler runs), loadSession (the cookie's session or
 * null); the JSX renderer (layout.tsx) is set first, so refusals render as pages too. Pages behind
 * sign-in add requireSession (session.ts), which puts the person's core context on the request.
 *
 * To add a page: a file in pages/ exporting a Hono<SignedInEnv> sub-app whose handlers call an
 * operation with `c.var.core` and answer `c.render(<Content />, { title })`, a refused form with
 * refused() (refusal.tsx), a list with Table (components.tsx); mount it below behind
 * requireSession(); add its entry to NAV in layout.tsx.
 */
export const dashboard = new Hono<DashboardEnv>();

const MAX_FORM_BYTES = 64 * 1024;

dashboard.use(requireHttps(), dashboardHeaders(), renderer);
dashboard.route('/assets', assets);
dashboard.use(
  bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: () => {
      throw new HTTPException(413, { message: 'This form is too large (over 64 KiB); shorten it and send it again.' });
    },
  }),
  csrf(),
  loadSession(),
);

// Anyone: sign up, sign in, sign out, and an invitation link.
dashboard.route('/', account);
dashboard.route('/', team);

// Signed in.
for (const path of ['/', '/onboarding', '/onboarding/*', '/settings/*', '/team', '/team/*', '/oauth/*']) dashboard.use(path, requireSession());
for (const page of ['/runs', '/watches', '/changes', '/approvals', '/objects', '/research', '/briefs']) dashboard.use(page, requireSession()).use(`${page}/*`, requireSession());
dashboard.route('/', home);
dashboard.route(ONBOARDING_PATH.replace('/dashboard', ''), onboarding);
dashboard.route(KEY_SETTINGS_PATH.replace('/dashboard', ''), keys);
dashboard.route('/runs', runs);
dashboard.route('/watches', watches);
dashboard.route('/changes', changes);
dashboard.route('/approvals', approvals);
dashboard.route('/objects', objects);
dashboard.route('/research', research);
dashboard.route('/briefs', briefs);
// The OAuth authorize step (consent) of MCP clients, and the person's connected clients (src/oauth/).
dashboard.route('/oauth', consent);
dashboard.route('/settings/connections', connections);

// Last, so it answers only paths no page took. (A mounted app's own notFound is never called: the
// parent app's would answer, in JSON, a page with no title and no language.)
dashboard.all('*', (c) => {
  c.status(404);
  return c.render(
    <p>
      There is no page here. <a href="/dashboard">Go to the overview</a>.
    </p>,
    { title: 'Page not found' },
  );
});

/**
 * Errors that reach here: a refused CSRF check or body limit (HTTPException), a DomainError no page
 * shows on its form (404 for another organization's key, 409, an OAuth request that cannot go back
 * to its client), or a bug: an HTML page, never a stack trace. Its title is the page's own when it
 * set `errorTitle`, else it says what happened.
 */
dashboard.onError((error, c) => {
  if (error instanceof HTTPException) {
    const message = error.status === 403 ? 'This form was sent from another site, so it was refused. Open the page on this site and send it again.' : error.message;
    c.status(error.status);
    return c.render(<p>{message}</p>, { title: error.status === 403 ? 'Refused' : 'Request refused' });
  }
  const domainError = toDomainError(error, c.var.requestId);
  c.status(domainError.status);
  const title = domainError.code === 'internal' ? 'Something went wrong' : (c.var.errorTitle ?? (domainError.code === 'not_found' ? 'Not found' : 'Request refused'));
  return c.render(
    <p>
      {domainError.message} <a href="/dashboard">Go to the overview</a>.
    </p>,
    { title },
  );
});
