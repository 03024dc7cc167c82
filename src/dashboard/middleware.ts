import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { DashboardEnv } from './env.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Plain http only on loopback hosts (local development); anywhere else the dashboard redirects to
 * https (308, same path), so a session cookie never travels in clear.
 */
export function requireHttps(): MiddlewareHandler<DashboardEnv> {
  return async function requireHttps(c, next) {
    const url = new URL(c.req.url);
    if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
      url.protocol = 'https:';
      return c.redirect(url.toString(), 308);
    }
    await next();
  };
}

/**
 * The dashboard's security headers (hono's secureHeaders, which the app-wide one does not
 * overwrite): a CSP allowing only the dashboard's own stylesheet and script files (no inline
 * script or style, no other origin, forms post only here, no framing), X-Frame-Options DENY, and
 * Referrer-Policy same-origin (same-origin form posts keep their Origin header, which the CSRF check
 * reads; no URL leaves the site in a Referer). Pages are never cached: they show keys and
 * invitation links.
 */
export function dashboardHeaders(): MiddlewareHandler<DashboardEnv> {
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'same-origin',
    // A page may send its own policy: the OAuth consent page adds the client's redirect origin to form-action.
    overwrite: false,
  });
  return async function dashboardHeadersAndCaching(c, next) {
    await headers(c, async () => {
      await next();
      if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
    });
  };
}

/** `next` when it is a dashboard path of this site, else the dashboard's home (no open redirect). */
export function safeNext(next: string | undefined): string {
  return next && /^\/dashboard(?:[/?#][^\s\\]*)?$/.test(next) && !next.startsWith('//') ? next : '/dashboard';
}
