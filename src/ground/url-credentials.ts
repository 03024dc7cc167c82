/**
 * URLs without the secrets people paste into them. Recon stores, cites and shows URLs that came
 * from outside (imported sources, pages added by URL, pages of a site read); a brief is read by
 * people who never had the key that opened the page, so a `user:pw@` or a `?token=` must not reach
 * it. Pure: no I/O, so the rule is a table of cases.
 *
 * What goes:
 * - the userinfo (`user:pw@`), whole;
 * - every query parameter whose name names a secret (`isSecretName`), wherever it stands and however
 *   often it repeats; the others stay, in their order, byte for byte;
 * - the same parameters in a fragment written as parameters (`#access_token=...&state=...`, how OAuth's
 *   implicit flow hands out tokens), and `;name=value` parameters of a path segment
 *   (`/cart;jsessionid=...`, how Java servers put a session in a URL).
 * Everything else of the URL is left as it was. A URL with nothing to remove is returned as it was
 * given; one with something removed is returned as the URL parser writes it. A string the URL
 * parser does not read as an absolute URL is returned unchanged: there is no URL to clean.
 *
 * A name is compared once percent-decoded (`%74oken` is `token` to the server that reads it; one
 * decoding, as a server does), lower-cased and with everything but letters and digits left out, so
 * `access_token`, `Access-Token`, `accessToken` and `auth[token]` are one name.
 *
 * Decision on `code`: it is an OAuth authorization code only beside `state` (RFC 6749, 4.1.2: an
 * authorization response carries both), so it is removed then and only then; alone, `?code=` is
 * far more often a country, product or discount code, which is part of what a page is.
 *
 * Not covered, because no rule can tell them from ordinary URLs: a secret that is a path segment
 * (`/share/8f3a.../`), or a URL with credentials nested, encoded, inside another parameter's value.
 */

/** Names that are a secret exactly (letters and digits only, lower case). */
const SECRET_NAMES: ReadonlySet<string> = new Set([
  'auth',
  'authorization',
  'key',
  'sig',
  'pass',
  'pwd',
  'session',
  'sid',
  'otp',
]);

/**
 * Endings that make a name a secret: `token` (access_token, id_token, refresh_token, oauth_token,
 * X-Amz-Security-Token), `signature` (X-Amz-Signature, X-Goog-Signature), `credential` (X-Amz-Credential,
 * X-Goog-Credential), `secret` (client_secret), `password`, keys that open something (api_key, apikey,
 * access_key, secret_key, private_key, auth_key, subscription-key) and session ids (sessionid,
 * jsessionid, phpsessid).
 */
const SECRET_ENDINGS: readonly string[] = [
  'token',
  'signature',
  'credential',
  'credentials',
  'secret',
  'password',
  'passwd',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'authkey',
  'subscriptionkey',
  'sessionid',
  'sessid',
];

/** `name` as it is compared: percent-decoded once (`+` is a space), lower case, letters and digits only. */
function comparableName(name: string): string {
  let decoded = name.replace(/\+/g, ' ');
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // A malformed escape (`%zz`): the server sees the characters as they are, and so do we.
  }
  return decoded.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Whether a query parameter named `name` (as written in the URL, percent-encoded or not) carries a
 * secret. `code` is not one by itself (see the module comment); `stripParameters` decides it.
 */
export function isSecretName(name: string): boolean {
  const compared = comparableName(name);
  return SECRET_NAMES.has(compared) || SECRET_ENDINGS.some((ending) => compared.endsWith(ending));
}

/** The name of one `name=value` piece (all of it when there is no `=`). */
function nameOf(piece: string): string {
  const equals = piece.indexOf('=');
  return equals === -1 ? piece : piece.slice(0, equals);
}

/**
 * `params` (`a=1&token=x`, without its `?` or `#`) without the secret ones, or undefined when none
 * is secret. Empty pieces (`a=1&&b=2`) are dropped only when something else is.
 */
function stripParameters(params: string): string | undefined {
  const pieces = params.split('&');
  const names = pieces.map((piece) => comparableName(nameOf(piece)));
  const oauthResponse = names.includes('state');
  const kept = pieces.filter((piece, index) => !(isSecretName(nameOf(piece)) || (oauthResponse && names[index] === 'code')));
  if (kept.length === pieces.length) return undefined;
  return kept.filter((piece) => piece !== '').join('&');
}

/** A path without secret `;name=value` segment parameters, or undefined when it has none. */
function stripPathParameters(pathname: string): string | undefined {
  if (!pathname.includes(';')) return undefined;
  let changed = false;
  const segments = pathname.split('/').map((segment) => {
    const [head = '', ...parameters] = segment.split(';');
    const kept = parameters.filter((parameter) => !isSecretName(nameOf(parameter)));
    if (kept.length === parameters.length) return segment;
    changed = true;
    return [head, ...kept].join(';');
  });
  return changed ? segments.join('/') : undefined;
}

/** Only a fragment that reads as parameters (`#a=1&b=2`) is one; `#pricing` is a place on the page. */
function stripFragment(hash: string): string | undefined {
  const fragment = hash.slice(1);
  return fragment.includes('=') ? stripParameters(fragment) : undefined;
}

/**
 * `url` without credentials: its userinfo and the query parameters that carry secrets (see the
 * module comment), everything else of it as it was. Not a URL: returned unchanged.
 *
 * @example withoutCredentials('https://ann:pw@acme.com/p?ref=x&access_token=abc#top') // 'https://acme.com/p?ref=x#top'
 */
export function withoutCredentials(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  let changed = false;
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '';
    parsed.password = '';
    changed = true;
  }
  const path = stripPathParameters(parsed.pathname);
  if (path !== undefined) {
    parsed.pathname = path;
    changed = true;
  }
  const query = parsed.search ? stripParameters(parsed.search.slice(1)) : undefined;
  if (query !== undefined) {
    parsed.search = query;
    changed = true;
  }
  const fragment = parsed.hash ? stripFragment(parsed.hash) : undefined;
  if (fragment !== undefined) {
    parsed.hash = fragment;
    changed = true;
  }
  return changed ? parsed.href : url;
}
