/**
 * Which URLs a watch may send its webhooks to. Pure: no I/O, so the policy is a table of cases.
 *
 * Production (`allowLocalHttp` false): only `https:` URLs to a public host name or a public IP
 * literal, without credentials, at most 2048 characters. Refused hosts: `localhost` and names under
 * `.localhost`, `.local`, `.internal` and `.home.arpa`, names without a dot, and IP literals in any
 * range that is not public unicast (private, loopback, link-local, CGNAT, unspecified, multicast,
 * broadcast, reserved, documentation and benchmarking ranges of IPv4; loopback, unspecified,
 * unique-local, link-local, site-local, multicast, documentation, Teredo and IPv4-compatible
 * ranges of IPv6, and any IPv6 form that embeds a refused IPv4 address: IPv4-mapped, NAT64, 6to4).
 * IPv4 written in decimal, octal or hex (`https://0x7f.1/`, `https://2130706433/`) is read the way
 * the URL parser normalizes it, so it is checked as the address it is.
 *
 * Development (`allowLocalHttp` true, set by `npm run dev` and the Workers test pool through the
 * `WEBHOOK_ALLOW_LOCAL_HTTP` var): `http:` or `https:` to `localhost`, `127.0.0.1` or `[::1]` (any
 * port) are allowed as well.
 *
 * Host names are not resolved: a public name whose DNS answer is a private address
 * (`https://10.0.0.1.nip.io`) passes. That is safe on Workers, whose `fetch` reaches only the
 * public Internet (never the account's or Cloudflare's private networks), and delivery never
 * follows redirects (src/watches/webhooks/delivery.ts).
 */

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface WebhookUrlOptions {
  /** Also allow http(s)://localhost, 127.0.0.1 and [::1]: local development only. */
  allowLocalHttp: boolean;
}

/**
 * The verdict on a webhook URL: the URL as it will be called (normalized by the URL parser), or a
 * message that reads after the field's name (`webhook.url must use https: ...`) and says what to
 * send instead.
 */
export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; message: string };

const LOCAL_DEV_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const PRIVATE_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

const refuse = (message: string): WebhookUrlCheck => ({ ok: false, message });

export function checkWebhookUrl(input: unknown, options: WebhookUrlOptions): WebhookUrlCheck {
  if (typeof input !== 'string') return refuse('must be a URL string, e.g. "https://hooks.example.com/recon"');
  if (input.length > WEBHOOK_URL_MAX_LENGTH) return refuse(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters, not ${input.length}`);
  if (input !== input.trim()) return refuse('must not start or end with spaces');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('must be an absolute URL, e.g. "https://hooks.example.com/recon"');
  }
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return refuse(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters once encoded, not ${url.href.length}`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`must use https, not ${url.protocol.replace(/:$/, '')}: e.g. "https://hooks.example.com/recon"`);
  }
  if (url.username || url.password) {
    return refuse('must not carry a user name or password (user:pass@); authenticate deliveries with the webhook-signature header instead');
  }
  if (url.hash) return refuse('must not have a #fragment (it is never sent to the server)');

  const host = url.hostname;
  if (options.allowLocalHttp && LOCAL_DEV_HOSTS.has(host)) return { ok: true, url: url.href };
  if (url.protocol !== 'https:') {
    const local = options.allowLocalHttp ? ' (http is allowed only for localhost, 127.0.0.1 and [::1] in local development)' : '';
    return refuse(`must use https, not http${local}`);
  }
  const refusal = host.startsWith('[') ? refuseIpv6(host.slice(1, -1)) : IPV4.test(host) ? refuseIpv4(host) : refuseName(host);
  return refusal ? refuse(refusal) : { ok: true, url: url.href };
}

/** Why a host name is not a public one, or undefined when it may be. */
function refuseName(host: string): string | undefined {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || PRIVATE_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return `must point at a public host, not ${host} (a local or internal name cannot be reached from Recon)`;
  }
  const labels = name.split('.');
  if (labels.length < 2) return `must point at a public host name with a domain, e.g. hooks.example.com, not ${host}`;
  if (name.length > 253 || !labels.every((label) => LABEL.test(label))) {
    return `must have a valid host name (labels of letters, digits and hyphens, at most 63 characters each), not ${host}`;
  }
  return undefined;
}

const notPublic = (address: string, range: string) =>
  `must point at a public address, not ${address} (${range}); use the public host name of your receiver`;

/** IPv4 ranges that are not public unicast: [first octets as a number, prefix length, what it is]. */
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
function refuseIpv4(address: string, shown = address): string | undefined {
  const n = ipv4Number(address);
  for (const [base, prefix, what] of IPV4_REFUSED) {
    const size = 2 ** (32 - prefix);
    const start = ipv4Number(base);
    if (n >= start && n < start + size) return notPublic(shown, what);
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
function refuseIpv6(address: string): string | undefined {
  const g = ipv6Groups(address);
  const shown = `[${address}]`;
  const zeros = (count: number) => g.slice(0, count).every((group) => group === 0);
  if (zeros(8)) return notPublic(shown, 'the unspecified address');
  if (zeros(7) && g[7] === 1) return notPublic(shown, 'the loopback address');
  if (zeros(5) && g[5] === 0xffff) return refuseIpv4(ipv4Of(g[6]!, g[7]!), shown) ?? notPublic(shown, 'an IPv4-mapped address; write the IPv4 address itself');
  if (zeros(6)) return notPublic(shown, 'an IPv4-compatible address');
  if (g[0] === 0x64 && g[1] === 0xff9b) return notPublic(shown, 'a NAT64 address');
  const first = g[0]!;
  if ((first & 0xff00) === 0xff00) return notPublic(shown, 'a multicast address');
  if ((first & 0xfe00) === 0xfc00) return notPublic(shown, 'a unique-local address');
  if ((first & 0xffc0) === 0xfe80) return notPublic(shown, 'a link-local address');
  if ((first & 0xffc0) === 0xfec0) return notPublic(shown, 'a site-local address');
  if ((first & 0xe000) !== 0x2000) return notPublic(shown, 'not a global unicast address');
  if (first === 0x2001 && g[1] === 0) return notPublic(shown, 'a Teredo address');
  if (first === 0x2001 && g[1] === 0x0db8) return notPublic(shown, 'a documentation address');
  if (first === 0x3fff && g[1]! < 0x1000) return notPublic(shown, 'a documentation address');
  if (first === 0x2002) return refuseIpv4(ipv4Of(g[1]!, g[2]!), shown);
  return undefined;
}
