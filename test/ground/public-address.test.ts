import { describe, expect, it } from 'vitest';
import { LOCAL_DEVELOPMENT_HOSTS, nonPublicHost, nonPublicHostMessage } from '../../src/ground/public-address.ts';

/** The host as every caller gives it: `new URL(...).hostname`, so each spelling reaches the classifier normalized. */
const hostOf = (url: string) => new URL(url).hostname;

/** Public: [URL, the host the classifier sees]. */
const PUBLIC: Array<[string, string]> = [
  ['https://acme.com/pricing', 'acme.com'],
  ['http://WWW.Acme.COM./', 'www.acme.com.'],
  ['https://bücher.example/', 'xn--bcher-kva.example'],
  ['https://my_site.example.com/', 'my_site.example.com'],
  ['https://8.8.8.8/', '8.8.8.8'],
  ['https://1.1.1.1/', '1.1.1.1'],
  ['https://172.32.0.1/', '172.32.0.1'],
  ['https://100.128.0.1/', '100.128.0.1'],
  ['https://169.255.0.1/', '169.255.0.1'],
  ['https://134744072/', '8.8.8.8'],
  ['https://0x8.0x8.0x8.0x8/', '8.8.8.8'],
  ['https://[2606:4700:4700::1111]/', '[2606:4700:4700::1111]'],
  ['https://[2002:808:808::1]/', '[2002:808:808::1]'],
  // Names are not resolved: these resolve to private addresses, and Workers' fetch cannot reach those.
  ['https://10.0.0.1.nip.io/', '10.0.0.1.nip.io'],
  ['https://0x7f.0x0.0x0.0x1.example.com/', '0x7f.0x0.0x0.0x1.example.com'],
];

/** Not public: [URL, the address or host it is read as, what it is]. */
const REFUSED: Array<[string, string, string]> = [
  // private
  ['http://10.1.2.3/', '10.1.2.3', 'a private address'],
  ['http://172.16.0.1/', '172.16.0.1', 'a private address'],
  ['http://172.31.255.255/', '172.31.255.255', 'a private address'],
  ['http://192.168.1.1/', '192.168.1.1', 'a private address'],
  // loopback, in every spelling the URL parser reads: decimal, octal, hex, short forms
  ['http://127.0.0.1/', '127.0.0.1', 'a loopback address'],
  ['http://127.1/', '127.0.0.1', 'a loopback address'],
  ['http://2130706433/', '127.0.0.1', 'a loopback address'],
  ['http://0x7f000001/', '127.0.0.1', 'a loopback address'],
  ['http://0x7f.1/', '127.0.0.1', 'a loopback address'],
  ['http://0177.0.0.1/', '127.0.0.1', 'a loopback address'],
  ['http://017700000001/', '127.0.0.1', 'a loopback address'],
  ['http://127.255.255.254/', '127.255.255.254', 'a loopback address'],
  // link-local, the cloud metadata address among them, in decimal and hex too
  ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'a link-local address'],
  ['http://2852039166/', '169.254.169.254', 'a link-local address'],
  ['http://0xa9fea9fe/', '169.254.169.254', 'a link-local address'],
  ['http://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254', 'a link-local address'],
  ['http://169.254.0.1/', '169.254.0.1', 'a link-local address'],
  // other clouds' metadata addresses: Alibaba (CGNAT), Oracle (IETF protocol range), AWS over IPv6 (unique-local)
  ['http://100.100.100.200/', '100.100.100.200', 'a carrier-grade NAT address'],
  ['http://192.0.0.192/', '192.0.0.192', 'an IETF protocol address'],
  ['http://[fd00:ec2::254]/', '[fd00:ec2::254]', 'a unique-local address'],
  // CGNAT, unspecified, multicast, broadcast, documentation, benchmarking
  ['http://100.64.0.1/', '100.64.0.1', 'a carrier-grade NAT address'],
  ['http://100.127.255.255/', '100.127.255.255', 'a carrier-grade NAT address'],
  ['http://0.0.0.0/', '0.0.0.0', 'an unspecified, "this network" address'],
  ['http://0/', '0.0.0.0', 'an unspecified, "this network" address'],
  ['http://224.0.0.1/', '224.0.0.1', 'a multicast address'],
  ['http://255.255.255.255/', '255.255.255.255', 'a reserved or broadcast address'],
  ['http://4294967295/', '255.255.255.255', 'a reserved or broadcast address'],
  ['http://192.0.2.10/', '192.0.2.10', 'a documentation address'],
  ['http://198.18.0.1/', '198.18.0.1', 'a benchmarking address'],
  // IPv6
  ['http://[::1]/', '[::1]', 'the loopback address'],
  ['http://[0:0:0:0:0:0:0:1]/', '[::1]', 'the loopback address'],
  ['http://[::]/', '[::]', 'the unspecified address'],
  ['http://[fc00::1]/', '[fc00::1]', 'a unique-local address'],
  ['http://[fe80::1]/', '[fe80::1]', 'a link-local address'],
  ['http://[fec0::1]/', '[fec0::1]', 'a site-local address'],
  ['http://[ff02::1]/', '[ff02::1]', 'a multicast address'],
  ['http://[2001:db8::1]/', '[2001:db8::1]', 'a documentation address'],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]', 'a Teredo address'],
  ['http://[100::1]/', '[100::1]', 'not a global unicast address'],
  ['http://[::127.0.0.1]/', '[::7f00:1]', 'an IPv4-compatible address'],
  ['http://[64:ff9b::a9fe:a9fe]/', '[64:ff9b::a9fe:a9fe]', 'a NAT64 address'],
  // IPv6 forms that embed a refused IPv4 address: IPv4-mapped (dotted or hex) and 6to4
  ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]', 'a loopback address'],
  ['http://[::ffff:7f00:1]/', '[::ffff:7f00:1]', 'a loopback address'],
  ['http://[::ffff:10.0.0.1]/', '[::ffff:a00:1]', 'a private address'],
  ['http://[::ffff:169.254.169.254]/', '[::ffff:a9fe:a9fe]', 'a link-local address'],
  ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', '[::ffff:a9fe:a9fe]', 'a link-local address'],
  ['http://[::ffff:8.8.8.8]/', '[::ffff:808:808]', 'an IPv4-mapped address; write the IPv4 address itself'],
  ['http://[2002:a9fe:a9fe::1]/', '[2002:a9fe:a9fe::1]', 'a link-local address'],
  ['http://[2002:c0a8:101::1]/', '[2002:c0a8:101::1]', 'a private address'],
];

describe('public address classification', () => {
  it(`finds public hosts public (${PUBLIC.length} cases), as the URL parser normalizes them`, () => {
    for (const [url, host] of PUBLIC) {
      expect(hostOf(url), url).toBe(host);
      expect(nonPublicHost(hostOf(url)), url).toBeUndefined();
    }
  });

  it(`refuses every address outside public unicast, in any spelling (${REFUSED.length} cases)`, () => {
    for (const [url, address, range] of REFUSED) {
      expect(nonPublicHost(hostOf(url)), url).toEqual({ kind: 'address', address, range });
    }
  });

  it('refuses local, internal, single-label and invalid names', () => {
    expect(nonPublicHost('localhost')).toEqual({ kind: 'local-name', host: 'localhost' });
    expect(nonPublicHost(hostOf('http://LOCALHOST./'))).toEqual({ kind: 'local-name', host: 'localhost.' });
    for (const host of ['api.localhost', 'printer.local', 'metadata.google.internal', 'router.home.arpa']) {
      expect(nonPublicHost(host), host).toEqual({ kind: 'local-name', host });
    }
    expect(nonPublicHost('intranet')).toEqual({ kind: 'no-domain', host: 'intranet' });
    expect(nonPublicHost(hostOf('http://a..b/'))).toEqual({ kind: 'invalid-name', host: 'a..b' });
    expect(nonPublicHost(`${'a'.repeat(64)}.com`)).toEqual({ kind: 'invalid-name', host: `${'a'.repeat(64)}.com` });
  });

  it('words each refusal as a rule that reads after a field name', () => {
    expect(nonPublicHostMessage({ kind: 'address', address: '169.254.169.254', range: 'a link-local address' }, 'acme.com')).toBe(
      'must point at a public address, not 169.254.169.254 (a link-local address)',
    );
    expect(nonPublicHostMessage({ kind: 'local-name', host: 'printer.local' }, 'acme.com')).toBe(
      'must point at a public host, not printer.local (a local or internal name cannot be reached from Recon)',
    );
    expect(nonPublicHostMessage({ kind: 'no-domain', host: 'intranet' }, 'acme.com')).toBe('must point at a public host name with a domain, e.g. acme.com, not intranet');
  });

  it('names the three development hosts as URL.hostname writes them', () => {
    expect([...LOCAL_DEVELOPMENT_HOSTS].sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect(LOCAL_DEVELOPMENT_HOSTS.has(hostOf('http://[0:0:0:0:0:0:0:1]:8080/'))).toBe(true);
  });
});
