/**
 * Whether a URL's host is a public one: the one classification of host names and IP literals that
 * every outbound request of Recon is checked with (watch webhooks: src/watches/webhooks/url-policy.ts;
 * sources added by URL: src/oms/source-url-policy.ts). Pure: no I/O, so it is a table of cases.
 *
 * It reads the host the way the WHATWG URL parser leaves it (`new URL(...).hostname`): lower case,
 * IPv6 in brackets and compressed, IPv4 in dotted decimal whatever spelling was sent (`0x7f.1`,
 * `2130706433`, `0177.0.0.1` all arrive as `127.0.0.1`), so every spelling of an address is checked
 * as the address it is.
 *
 * Not public: `localhost` and names under `.localhost`, `.local`, `.internal` and `.home.arpa`;
 * names without a dot; invalid names; and IP literals outside public unicast (private, loopback,
 * link-local and so the cloud metadata address 169.254.169.254, CGNAT, unspecified, multicast,
 * broadcast, reserved, documentation and benchmarking ranges of IPv4; loopback, unspecified,
 * unique-local, link-local, site-local, multicast, documentation, Teredo and IPv4-compatible ranges
 * of IPv6, and any IPv6 form that embeds a refused IPv4 address: IPv4-mapped, NAT64, 6to4).
 *
 * Host names are not resolved: a public name whose DNS answer is a private address passes. That is
 * safe on Workers, whose `fetch` reaches only the public Internet (never the account's or
 * Cloudflare's private networks).
 */

/** Why a host is not public; each policy words its own message from it. */
export type NonPublicHost =
  /** `localhost` or a name under a local or internal suffix. */
  | { kind: 'local-name'; host: string }
  /** A single label, such as `intranet`. */
  | { kind: 'no-domain'; host: string }
  /** Not a valid host name (an empty label, a label over 63 characters, a forbidden character). */
  | { kind: 'invalid-name'; host: string }
  /** An IP literal outside public unicast: `address` as shown (IPv6 in brackets), `range` what it is. */
  | { kind: 'address'; address: string; range: string };

/**
 * Why a host is refused, as a rule that reads after a field's name (`webhook.url must point at a
 * public address, not 10.0.0.1 (a private address)`). `example` is a public host name to suggest.
 */
export function nonPublicHostMessage(refusal: NonPublicHost, example: string): string {
  switch (refusal.kind) {
    case 'local-name':
      return `must point at a public host, not ${refusal.host} (a local or internal name cannot be reached from Recon)`;
    case 'no-domain':
      return `must point at a public host name with a domain, e.g. ${example}, not ${refusal.host}`;
    case 'invalid-name':
      return `must have a valid host name (labels of letters, digits and hyphens, at most 63 characters each), not ${refusal.host}`;
    case 'address':
      return `must point at a public address, not ${refusal.address} (${refusal.range})`;
  }
}

/** The hosts a development setting may admit (`localhost`, `127.0.0.1`, `[::1]`), as `URL.hostname` writes them. */
export const LOCAL_DEVELOPMENT_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

const PRIVATE_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Why `hostname` (as `URL.hostname` gives it) is not a public host, or undefined when it is. */
export function nonPublicHost(hostname: string): NonPublicHost | undefined {
  if (hostname.startsWith('[')) return nonPublicIpv6(hostname.slice(1, -1));
  if (IPV4.test(hostname)) return nonPublicIpv4(hostname);
  return nonPublicName(hostname);
}

function nonPublicName(host: string): NonPublicHost | undefined {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || PRIVATE_SUFFIXES.some((suffix) => name.endsWith(suffix))) return { kind: 'local-name', host };
  const labels = name.split('.');
  if (labels.length < 2) return { kind: 'no-domain', host };
  if (name.length > 253 || !labels.every((label) => LABEL.test(label))) return { kind: 'invalid-name', host };
  return undefined;
}

/** IPv4 ranges that are not public unicast: [first address, prefix length, what it is]. */
const IPV4_REFUSED: ReadonlyArray<[string, number, string]> = [
  ['0.0.0.0', 8, 'an unspecified, "this network" address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved or broadcast address'],
];

function ipv4Number(address: string): number {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

/** Why an IPv4 address (dotted, as the URL parser writes it) is not public, or undefined. */
function nonPublicIpv4(address: string, shown = address): NonPublicHost | undefined {
  const n = ipv4Number(address);
  for (const [base, prefix, range] of IPV4_REFUSED) {
    const start = ipv4Number(base);
    if (n >= start && n < start + 2 ** (32 - prefix)) return { kind: 'address', address: shown, range };
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (hex, `::` compressed). */
function ipv6Groups(address: string): number[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const first = parse(head);
  const last = parse(tail);
  return tail === undefined ? first : [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/** Why an IPv6 address is not public, or undefined. Only global unicast (2000::/3) may be. */
function nonPublicIpv6(address: string): NonPublicHost | undefined {
  const g = ipv6Groups(address);
  const shown = `[${address}]`;
  const refused = (range: string): NonPublicHost => ({ kind: 'address', address: shown, range });
  const zeros = (count: number) => g.slice(0, count).every((group) => group === 0);
  if (zeros(8)) return refused('the unspecified address');
  if (zeros(7) && g[7] === 1) return refused('the loopback address');
  if (zeros(5) && g[5] === 0xffff) return nonPublicIpv4(ipv4Of(g[6]!, g[7]!), shown) ?? refused('an IPv4-mapped address; write the IPv4 address itself');
  if (zeros(6)) return refused('an IPv4-compatible address');
  if (g[0] === 0x64 && g[1] === 0xff9b) return refused('a NAT64 address');
  const first = g[0]!;
  if ((first & 0xff00) === 0xff00) return refused('a multicast address');
  if ((first & 0xfe00) === 0xfc00) return refused('a unique-local address');
  if ((first & 0xffc0) === 0xfe80) return refused('a link-local address');
  if ((first & 0xffc0) === 0xfec0) return refused('a site-local address');
  if ((first & 0xe000) !== 0x2000) return refused('not a global unicast address');
  if (first === 0x2001 && g[1] === 0) return refused('a Teredo address');
  if (first === 0x2001 && g[1] === 0x0db8) return refused('a documentation address');
  if (first === 0x3fff && g[1]! < 0x1000) return refused('a documentation address');
  if (first === 0x2002) return nonPublicIpv4(ipv4Of(g[1]!, g[2]!), shown);
  return undefined;
}
