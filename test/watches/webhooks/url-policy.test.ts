import { env } from 'cloudflare:workers';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { checkInput } from '../../../src/ground/validation.ts';
import { webhookUrlOptions } from '../../../src/watches/webhooks/url-options.ts';
import { checkWebhookUrl } from '../../../src/watches/webhooks/url-policy.ts';

const PRODUCTION = { allowLocalHttp: false };
const DEV = { allowLocalHttp: true };

/** Allowed everywhere: [sent, the URL called]. */
const ALLOWED: Array<[string, string]> = [
  ['https://hooks.example.com/recon', 'https://hooks.example.com/recon'],
  ['HTTPS://Hooks.EXAMPLE.com/Recon?A=1', 'https://hooks.example.com/Recon?A=1'],
  ['https://hooks.example.com:8443/x', 'https://hooks.example.com:8443/x'],
  ['https://hooks.example.com./x', 'https://hooks.example.com./x'],
  ['https://bücher.example/hook', 'https://xn--bcher-kva.example/hook'],
  ['https://my_hooks.example.com/', 'https://my_hooks.example.com/'],
  // A public name whose DNS answer is private: names are not resolved (Workers' fetch reaches only the public Internet).
  ['https://10.0.0.1.nip.io/', 'https://10.0.0.1.nip.io/'],
  ['https://127.0.0.1.sslip.io/', 'https://127.0.0.1.sslip.io/'],
  ['https://0x7f.0x0.0x0.0x1.example.com/', 'https://0x7f.0x0.0x0.0x1.example.com/'],
  ['https://8.8.8.8/hook', 'https://8.8.8.8/hook'],
  ['https://1.1.1.1:444/', 'https://1.1.1.1:444/'],
  ['https://172.32.0.1/', 'https://172.32.0.1/'],
  ['https://100.128.0.1/', 'https://100.128.0.1/'],
  ['https://[2606:4700:4700::1111]/', 'https://[2606:4700:4700::1111]/'],
  ['https://[2002:808:808::1]/', 'https://[2002:808:808::1]/'],
  [`https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`, `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`],
];

/** Refused in production: [sent, a phrase of the message]. */
const REFUSED: Array<[string, string]> = [
  ['http://hooks.example.com/', 'must use https, not http'],
  ['ftp://hooks.example.com/', 'must use https, not ftp'],
  ['javascript:alert(1)', 'must use https, not javascript'],
  ['hooks.example.com/recon', 'must be an absolute URL'],
  ['https://', 'must be an absolute URL'],
  ['', 'must be an absolute URL'],
  [' https://hooks.example.com/', 'must not start or end with spaces'],
  ['https://user:pw@hooks.example.com/', 'must not carry a user name or password'],
  ['https://user@hooks.example.com/', 'must not carry a user name or password'],
  ['https://hooks.example.com/#frag', 'must not have a #fragment'],
  [`https://hooks.example.com/${'a'.repeat(2049 - 'https://hooks.example.com/'.length)}`, 'at most 2048 characters, not 2049'],
  [`https://hooks.example.com/${'é'.repeat(1000)}`, 'at most 2048 characters once encoded'],
  ['https://localhost/', 'not localhost'],
  ['https://localhost./', 'not localhost.'],
  ['https://LOCALHOST:8787/', 'not localhost'],
  ['https://api.localhost/', 'a local or internal name'],
  ['https://printer.local/', 'a local or internal name'],
  ['https://metadata.google.internal/', 'a local or internal name'],
  ['https://router.home.arpa/', 'a local or internal name'],
  ['https://intranet/', 'a public host name with a domain'],
  ['https://a..b/', 'a valid host name'],
  ['https://127.0.0.1/', '127.0.0.1 (a loopback address)'],
  ['https://127.1/', '127.0.0.1 (a loopback address)'],
  ['https://0x7f.1/', '127.0.0.1 (a loopback address)'],
  ['https://2130706433/', '127.0.0.1 (a loopback address)'],
  ['https://0177.0.0.1/', '127.0.0.1 (a loopback address)'],
  ['https://0/', '0.0.0.0 (an unspecified'],
  ['https://10.1.2.3/', 'a private address'],
  ['https://172.16.0.1/', 'a private address'],
  ['https://172.31.255.255/', 'a private address'],
  ['https://192.168.1.1/', 'a private address'],
  ['https://100.64.0.1/', 'a carrier-grade NAT address'],
  ['https://100.127.255.255/', 'a carrier-grade NAT address'],
  ['https://169.254.169.254/latest/meta-data', 'a link-local address'],
  ['https://224.0.0.1/', 'a multicast address'],
  ['https://255.255.255.255/', 'a reserved or broadcast address'],
  ['https://192.0.2.10/', 'a documentation address'],
  ['https://198.18.0.1/', 'a benchmarking address'],
  ['https://[::1]/', 'the loopback address'],
  ['https://[0:0:0:0:0:0:0:1]/', 'the loopback address'],
  ['https://[::]/', 'the unspecified address'],
  ['https://[::ffff:127.0.0.1]/', '[::ffff:7f00:1] (a loopback address)'],
  ['https://[::ffff:10.0.0.1]/', '(a private address)'],
  ['https://[::ffff:169.254.169.254]/', '(a link-local address)'],
  ['https://[::ffff:8.8.8.8]/', 'an IPv4-mapped address; write the IPv4 address itself'],
  ['https://[::127.0.0.1]/', 'an IPv4-compatible address'],
  ['https://[64:ff9b::a00:1]/', 'a NAT64 address'],
  ['https://[fc00::1]/', 'a unique-local address'],
  ['https://[fd12:3456::1]/', 'a unique-local address'],
  ['https://[fe80::1]/', 'a link-local address'],
  ['https://[fec0::1]/', 'a site-local address'],
  ['https://[ff02::1]/', 'a multicast address'],
  ['https://[2001:db8::1]/', 'a documentation address'],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'a Teredo address'],
  ['https://[2002:a00:1::1]/', '(a private address)'],
  ['https://[100::1]/', 'not a global unicast address'],
];

describe('webhook URL policy', () => {
  it(`allows public https URLs in production and development (${ALLOWED.length} cases), as the URL parser normalizes them`, () => {
    for (const [sent, called] of ALLOWED) {
      expect(checkWebhookUrl(sent, PRODUCTION), sent).toEqual({ ok: true, url: called });
      expect(checkWebhookUrl(sent, DEV), sent).toEqual({ ok: true, url: called });
    }
  });

  it(`refuses everything else in production with a message a person can act on (${REFUSED.length} cases)`, () => {
    for (const [sent, phrase] of REFUSED) {
      const result = checkWebhookUrl(sent, PRODUCTION);
      expect(result.ok, sent).toBe(false);
      if (!result.ok) {
        expect(result.message, sent).toContain(phrase);
        expect(result.message, sent).toMatch(/^must /);
      }
    }
  });

  it('refuses a value that is not a string', () => {
    for (const sent of [undefined, null, 42, { url: 'https://x.com' }, ['https://x.com']]) {
      expect(checkWebhookUrl(sent, PRODUCTION)).toEqual({ ok: false, message: 'must be a URL string, e.g. "https://hooks.example.com/recon"' });
    }
  });

  it('allows http and https to localhost, 127.0.0.1 and [::1] in development only', () => {
    const local = ['http://localhost:8080/hook', 'http://127.0.0.1:41234/', 'http://[::1]:9000/x', 'https://localhost/', 'http://LOCALHOST/', 'http://[0:0:0:0:0:0:0:1]/'];
    const called = ['http://localhost:8080/hook', 'http://127.0.0.1:41234/', 'http://[::1]:9000/x', 'https://localhost/', 'http://localhost/', 'http://[::1]/'];
    local.forEach((sent, i) => {
      expect(checkWebhookUrl(sent, DEV), sent).toEqual({ ok: true, url: called[i] });
      expect(checkWebhookUrl(sent, PRODUCTION).ok, sent).toBe(false);
    });
    // Development widens only those three hosts: other http URLs, other loopback forms and private addresses stay refused.
    for (const [sent, phrase] of [
      ['http://hooks.example.com/', 'http is allowed only for localhost, 127.0.0.1 and [::1] in local development'],
      ['http://127.0.0.2/', 'http is allowed only for'],
      ['http://localhost./', 'http is allowed only for'],
      ['https://127.0.0.2/', 'a loopback address'],
      ['https://10.0.0.1/', 'a private address'],
      ['http://user:pw@localhost/', 'must not carry a user name or password'],
      ['ftp://localhost/', 'must use https, not ftp'],
    ] as const) {
      const result = checkWebhookUrl(sent, DEV);
      expect(result.ok, sent).toBe(false);
      if (!result.ok) expect(result.message, sent).toContain(phrase);
    }
  });

  it('reads development from WEBHOOK_ALLOW_LOCAL_HTTP, strict when it is absent and refusing any other value', () => {
    expect(webhookUrlOptions(env)).toEqual({ allowLocalHttp: true }); // vitest.config.ts sets it, as npm run dev does
    const { WEBHOOK_ALLOW_LOCAL_HTTP: _, ...deployed } = env as Env & { WEBHOOK_ALLOW_LOCAL_HTTP?: string };
    expect(webhookUrlOptions(deployed as Env)).toEqual({ allowLocalHttp: false });
    expect(webhookUrlOptions({ ...deployed, WEBHOOK_ALLOW_LOCAL_HTTP: 'false' } as Env)).toEqual({ allowLocalHttp: false });
    expect(() => webhookUrlOptions({ ...deployed, WEBHOOK_ALLOW_LOCAL_HTTP: 'yes' } as Env)).toThrow(/WEBHOOK_ALLOW_LOCAL_HTTP: must be "true" or "false"/);
  });

  it('reads as a details entry on webhook.url when a create schema refines with it', () => {
    const schema = z.strictObject({
      webhook: z.strictObject({
        url: z.string().superRefine((url, ctx) => {
          const result = checkWebhookUrl(url, PRODUCTION);
          if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message });
        }),
      }),
    });
    const result = checkInput(schema, { webhook: { url: 'https://169.254.169.254/' } }, 'watch');
    expect(result).toEqual({
      success: false,
      details: [
        {
          path: 'webhook.url',
          message: 'webhook.url must point at a public address, not 169.254.169.254 (a link-local address); use the public host name of your receiver',
        },
      ],
    });
  });
});
