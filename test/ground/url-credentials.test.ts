import { describe, expect, it } from 'vitest';
import { isSecretName, withoutCredentials } from '../../src/ground/url-credentials.ts';

/** [given, expected]: what withoutCredentials makes of it. */
const STRIPPED: Array<[string, string]> = [
  // userinfo
  ['https://user:pw@acme.com/pricing', 'https://acme.com/pricing'],
  ['https://user@acme.com/pricing', 'https://acme.com/pricing'],
  ['https://:pw@acme.com/', 'https://acme.com/'],
  ['http://a%40b:p%3Aw@acme.com:8080/x', 'http://acme.com:8080/x'],
  // exact names, any case
  ['https://acme.com/p?token=abc', 'https://acme.com/p'],
  ['https://acme.com/p?TOKEN=abc&ref=nav', 'https://acme.com/p?ref=nav'],
  ['https://acme.com/p?ref=nav&access_token=abc', 'https://acme.com/p?ref=nav'],
  ['https://acme.com/p?id_token=abc&lang=en', 'https://acme.com/p?lang=en'],
  ['https://acme.com/p?auth=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?key=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?api_key=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?apikey=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?apiKey=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?api-key=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?sig=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?signature=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?password=abc&pass=b&pwd=c&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?secret=abc&client_secret=def&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?session=abc&sessionid=def&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?PHPSESSID=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?refresh_token=abc&oauth_token=def&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?auth[token]=abc&a=1', 'https://acme.com/p?a=1'],
  // presigned storage URLs: the signature and the credential go, the rest of the request stays
  [
    'https://bucket.s3.amazonaws.com/sheet.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20260501%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260501T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Security-Token=FQo&X-Amz-Signature=abcdef',
    'https://bucket.s3.amazonaws.com/sheet.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260501T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host',
  ],
  [
    'https://storage.googleapis.com/b/o.pdf?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=svc%40p.iam&X-Goog-Signature=0a1b',
    'https://storage.googleapis.com/b/o.pdf?X-Goog-Algorithm=GOOG4-RSA-SHA256',
  ],
  // hostile spellings of a name
  ['https://acme.com/p?%74oken=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?%54%4F%4B%45%4E=abc', 'https://acme.com/p'],
  ['https://acme.com/p?access+token=abc&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?token&a=1', 'https://acme.com/p?a=1'],
  ['https://acme.com/p?token=', 'https://acme.com/p'],
  // repeated, and everywhere in the query; the others keep their order and spelling
  ['https://acme.com/p?token=1&a=1&token=2&b=%20x+y&TOKEN=3', 'https://acme.com/p?a=1&b=%20x+y'],
  ['https://acme.com/p?token=1&&a=1', 'https://acme.com/p?a=1'],
  // OAuth: code beside state is an authorization code
  ['https://acme.com/cb?code=abc&state=xyz', 'https://acme.com/cb?state=xyz'],
  // fragments: one written as parameters is cleaned, a place on the page is kept
  ['https://acme.com/p?token=abc#pricing', 'https://acme.com/p#pricing'],
  ['https://acme.com/cb#access_token=abc&token_type=bearer&expires_in=3600', 'https://acme.com/cb#token_type=bearer&expires_in=3600'],
  ['https://acme.com/cb#id_token=abc', 'https://acme.com/cb'],
  // a session in a path segment
  ['https://acme.com/shop;jsessionid=ABC123/item?a=1', 'https://acme.com/shop/item?a=1'],
  ['https://acme.com/item;jsessionid=ABC;v=2', 'https://acme.com/item;v=2'],
];

/** Left exactly as given: nothing in them is a credential, or they are no URL. */
const UNCHANGED: string[] = [
  'https://acme.com/pricing',
  'https://acme.com/p?ref=nav&utm_source=x&lang=en',
  'https://acme.com/p?code=US',
  'https://acme.com/p?monkey=1&keyword=2&passport=3&bypass=4&tokenize=5&sessions=6&state=ok',
  'https://acme.com/p#pricing',
  'https://acme.com/p#a=1&b=2',
  'https://acme.com/a;b=1/c',
  // the URL parser would write these differently; with nothing to remove they stay as given
  'HTTPS://Acme.COM/p?q=a b',
  // not URLs
  '',
  'not a url',
  'acme.com/p?token=abc',
  '/relative/path?token=abc',
  'https://',
  'http://[::1/?token=x',
  'mailto:ann@acme.com?subject=Hello',
];

describe('withoutCredentials', () => {
  it.each(STRIPPED)('removes the credentials of %s', (given, expected) => {
    expect(withoutCredentials(given)).toBe(expected);
  });

  it.each(UNCHANGED)('leaves %j exactly as it was', (given) => {
    expect(withoutCredentials(given)).toBe(given);
  });

  it('removes a parameter named token even when it has no value', () => {
    expect(withoutCredentials('https://acme.com/p?token')).toBe('https://acme.com/p');
  });

  it('is idempotent: what it returns has nothing left to remove', () => {
    for (const [given] of STRIPPED) {
      const once = withoutCredentials(given);
      expect(withoutCredentials(once)).toBe(once);
    }
  });

  it('reads a name with a malformed escape as written, without throwing', () => {
    expect(withoutCredentials('https://acme.com/p?%zz=1&a=%')).toBe('https://acme.com/p?%zz=1&a=%');
    expect(withoutCredentials('https://acme.com/p?to%zzken=1&token=2')).toBe('https://acme.com/p?to%zzken=1');
    expect(withoutCredentials('https://acme.com/p?token%=1&a=1')).toBe('https://acme.com/p?a=1');
  });

  it('decodes a name once, as a server does: a doubly encoded name is another name', () => {
    expect(withoutCredentials('https://acme.com/p?%2574oken=1')).toBe('https://acme.com/p?%2574oken=1');
  });

  it('cleans a very long URL in one pass and keeps its long harmless parts', () => {
    const long = 'a'.repeat(100_000);
    const params = Array.from({ length: 2_000 }, (_, i) => (i % 2 ? `token=${i}` : `p${i}=${i}`)).join('&');
    const result = withoutCredentials(`https://u:p@acme.com/${long}?${params}`);
    expect(result.startsWith(`https://acme.com/${long}?p0=0&p2=2&`)).toBe(true);
    expect(result).not.toMatch(/token|u:p@/);
  });

  it('keeps port, path, the other parameters and a place fragment as the parser writes them', () => {
    expect(withoutCredentials('https://u:p@ACME.com:8443/A/b%20c/?x=1&sig=2&y=%E2%82%AC#Top')).toBe('https://acme.com:8443/A/b%20c/?x=1&y=%E2%82%AC#Top');
  });
});

describe('isSecretName', () => {
  it.each(['token', 'Access_Token', 'x-amz-signature', 'X-Goog-Credential', 'client_secret', 'jsessionid', '%70wd', 'SubscriptionKey'])('reads %s as a secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['code', 'state', 'ref', 'q', 'page', 'keyword', 'utm_campaign', 'lang', 'id'])('reads %s as no secret', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});
