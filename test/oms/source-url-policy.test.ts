import { describe, expect, it } from 'vitest';
import { checkSourceUrl } from '../../src/oms/source-url-policy.ts';

const PRODUCTION = { allowLocalHttp: false };
const DEV = { allowLocalHttp: true };

/** Allowed everywhere: [sent, the URL fetched]. */
const ALLOWED: Array<[string, string]> = [
  ['https://acme.com/pricing', 'https://acme.com/pricing'],
  ['http://acme.com/pricing', 'http://acme.com/pricing'],
  ['  HTTPS://WWW.Acme.com/Pricing?Plan=Pro  ', 'https://www.acme.com/Pricing?Plan=Pro'],
  ['https://acme.com/pricing#enterprise', 'https://acme.com/pricing'],
  ['https://acme.com:8443/', 'https://acme.com:8443/'],
  ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
  ['https://8.8.8.8/', 'https://8.8.8.8/'],
  ['https://[2606:4700:4700::1111]/', 'https://[2606:4700:4700::1111]/'],
];

/** Refused in production and development: [sent, a phrase of the message]. */
const REFUSED: Array<[string, string]> = [
  ['acme.com/pricing', 'must be an absolute URL'],
  ['', 'must be an absolute URL'],
  ['ftp://acme.com/file', 'must use http or https, not ftp'],
  ['file:///etc/passwd', 'must use http or https, not file'],
  ['javascript:alert(1)', 'must use http or https, not javascript'],
  ['data:text/html,<p>hi</p>', 'must use http or https, not data'],
  ['gopher://acme.com/', 'must use http or https, not gopher'],
  ['https://user:pw@acme.com/', 'must not carry a user name or password'],
  [`https://acme.com/${'a'.repeat(2049 - 'https://acme.com/'.length)}`, 'at most 2048 characters, not 2049'],
  [`https://acme.com/${'é'.repeat(1000)}`, 'at most 2048 characters once encoded'],
  ['http://10.0.0.1/', 'not 10.0.0.1 (a private address)'],
  ['http://192.168.0.10:8080/admin', 'not 192.168.0.10 (a private address)'],
  ['http://169.254.169.254/latest/meta-data/', 'not 169.254.169.254 (a link-local address)'],
  ['http://2852039166/', 'not 169.254.169.254 (a link-local address)'],
  ['http://0xa9fea9fe/', 'not 169.254.169.254 (a link-local address)'],
  ['http://[::ffff:169.254.169.254]/', 'not [::ffff:a9fe:a9fe] (a link-local address)'],
  ['http://[fe80::1]/', 'a link-local address'],
  ['http://[fd00:ec2::254]/', 'a unique-local address'],
  ['http://127.0.0.2/', 'not 127.0.0.2 (a loopback address)'],
  ['http://0x7f.0.0.2/', 'not 127.0.0.2 (a loopback address)'],
  ['http://metadata.google.internal/', 'a local or internal name'],
  ['http://printer.local/', 'a local or internal name'],
  ['http://intranet/', 'a public host name with a domain'],
];

/** Development only: the three local hosts, in any spelling the URL parser makes one of them. */
const LOCAL: Array<[string, string]> = [
  ['http://localhost:8787/page', 'http://localhost:8787/page'],
  ['http://LOCALHOST/', 'http://localhost/'],
  ['http://127.0.0.1:41234/x', 'http://127.0.0.1:41234/x'],
  ['http://2130706433:41234/x', 'http://127.0.0.1:41234/x'],
  ['http://0x7f.1/', 'http://127.0.0.1/'],
  ['https://[::1]:9000/', 'https://[::1]:9000/'],
  ['http://[0:0:0:0:0:0:0:1]/', 'http://[::1]/'],
];

describe('source URL policy', () => {
  it(`allows http(s) URLs of public hosts in production and development (${ALLOWED.length} cases), without their fragment`, () => {
    for (const [sent, fetched] of ALLOWED) {
      expect(checkSourceUrl(sent, PRODUCTION), sent).toEqual({ ok: true, url: fetched });
      expect(checkSourceUrl(sent, DEV), sent).toEqual({ ok: true, url: fetched });
    }
  });

  it(`refuses other schemes, credentials, overlong URLs and hosts that are not public, in both (${REFUSED.length} cases)`, () => {
    for (const [sent, phrase] of REFUSED) {
      for (const options of [PRODUCTION, DEV]) {
        const result = checkSourceUrl(sent, options);
        expect(result.ok, sent).toBe(false);
        if (!result.ok) {
          expect(result.message, sent).toContain(phrase);
          expect(result.message, sent).toMatch(/^must /);
        }
      }
    }
  });

  it('allows localhost, 127.0.0.1 and [::1] in development only, and says so when it refuses another local address there', () => {
    for (const [sent, fetched] of LOCAL) {
      expect(checkSourceUrl(sent, DEV), sent).toEqual({ ok: true, url: fetched });
      const production = checkSourceUrl(sent, PRODUCTION);
      expect(production.ok, sent).toBe(false);
      if (!production.ok) expect(production.message, sent).not.toContain('local development');
    }
    expect(checkSourceUrl('http://127.0.0.2/', DEV)).toEqual({
      ok: false,
      message: 'must point at a public address, not 127.0.0.2 (a loopback address); in local development, only localhost, 127.0.0.1 and [::1] are allowed besides public hosts',
    });
  });
});
