import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

/**
 * The session cookie. Over https it is `__Host-recon_session`: Secure, Path=/, no Domain, so no
 * other host or plain-http page can set or overwrite it. Plain http is served only on loopback
 * hosts (local development, see requireHttps), where the cookie is `recon_session` without Secure:
 * browsers differ on Secure cookies over http://localhost (Safari refuses them), and nothing
 * crosses a network. Always HttpOnly and SameSite=Lax.
 */
const NAME = 'recon_session';

function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:';
}

export function readSessionCookie(c: Context): string | undefined {
  return isHttps(c) ? getCookie(c, NAME, 'host') : getCookie(c, NAME);
}

export function writeSessionCookie(c: Context, token: string, expiresAt: string): void {
  const secure = isHttps(c);
  setCookie(c, NAME, token, {
    path: '/',
    httpOnly: true,
    secure,
    sameSite: 'Lax',
    expires: new Date(expiresAt),
    ...(secure ? { prefix: 'host' as const } : {}),
  });
}

export function clearSessionCookie(c: Context): void {
  const secure = isHttps(c);
  deleteCookie(c, NAME, { path: '/', httpOnly: true, secure, sameSite: 'Lax', ...(secure ? { prefix: 'host' as const } : {}) });
}
