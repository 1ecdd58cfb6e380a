/**
 * Where deliveries may go (docs/security.md, "Webhooks as a way in"): public addresses only, so an
 * endpoint cannot make our functions call the cloud's metadata service, the VPC or a loopback service.
 * Checked on the URL when an endpoint is made and on the resolved address before every delivery, which
 * then connects to that very address (delivery.ts).
 *
 * One check for IPv4, IPv6 and every form that carries an IPv4 address inside IPv6 (IPv4-mapped, NAT64,
 * 6to4, Teredo, ISATAP): the embedded IPv4 address is judged too, since a gateway or the kernel may deliver
 * the packet to it. Node's BlockList is not used: it matches an IPv4 address against IPv6 rules as its
 * IPv4-mapped form, so a `::ffff:0:0/96` rule refused every public IPv4 address.
 */
import { isIP } from 'node:net';

type Range = readonly [network: string, prefixLength: number];

/** IPv4 ranges that are not public (RFC 6890 and its updates): this host, private, CGNAT, loopback, link-local, protocol assignments, documentation, 6to4 relays, benchmarking, multicast, reserved and broadcast. */
const IPV4_NOT_PUBLIC: readonly Range[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/**
 * IPv6 ranges inside global unicast (2000::/3; nothing outside it is public) that are not public: IETF protocol
 * assignments (2001::/23, Teredo apart, judged by its embedded addresses) and documentation (2001:db8::/32, 3fff::/20).
 */
const IPV6_GLOBAL_NOT_PUBLIC: readonly Range[] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
];

function ipv4Value(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/** An IPv6 address (valid by isIP, zone id allowed) as a 128-bit number. */
function ipv6Value(address: string): bigint {
  let text = address.split('%')[0]!.toLowerCase();
  // A trailing dotted IPv4 (::ffff:10.0.0.1) becomes its two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const value = ipv4Value(dotted);
    text = `${text.slice(0, -dotted.length)}${Math.floor(value / 65536).toString(16)}:${(value % 65536).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const inIpv4 = (value: number, [network, length]: Range) => Math.floor(value / 2 ** (32 - length)) === Math.floor(ipv4Value(network) / 2 ** (32 - length));
const inIpv6 = (value: bigint, [network, length]: Range) => value >> BigInt(128 - length) === ipv6Value(network) >> BigInt(128 - length);
const low32 = (value: bigint) => Number(value & 0xffff_ffffn);

function isPublicIpv4(value: number): boolean {
  return !IPV4_NOT_PUBLIC.some((range) => inIpv4(value, range));
}

function isPublicIpv6(value: bigint): boolean {
  // IPv4-mapped (::ffff:0:0/96) and the well-known NAT64 prefix (64:ff9b::/96, RFC 6052): the IPv4 address decides.
  if (inIpv6(value, ['::ffff:0:0', 96]) || inIpv6(value, ['64:ff9b::', 96])) return isPublicIpv4(low32(value));
  // Everything else outside global unicast: unspecified, loopback, IPv4-compatible (::7f00:1), local-use NAT64
  // (64:ff9b:1::/48), discard, unique local, link-local, site-local, multicast.
  if (!inIpv6(value, ['2000::', 3])) return false;
  // 6to4 (2002::/16): the relay sends to the IPv4 address in bits 16-47.
  if (inIpv6(value, ['2002::', 16])) return isPublicIpv4(low32(value >> 80n));
  // Teredo (2001::/32): the server's IPv4 address in bits 32-63, the client's in the last 32 bits, inverted.
  if (inIpv6(value, ['2001::', 32])) return isPublicIpv4(low32(value >> 64n)) && isPublicIpv4(low32(~value));
  if (IPV6_GLOBAL_NOT_PUBLIC.some((range) => inIpv6(value, range))) return false;
  // ISATAP interface ids (0:5efe:a.b.c.d, 200:5efe:a.b.c.d) under any prefix carry an IPv4 address too.
  const interfaceHigh = Number((value >> 32n) & 0xfdff_ffffn);
  if (interfaceHigh === 0x5efe) return isPublicIpv4(low32(value));
  return true;
}

/** Whether an IP address (v4 or v6, in any form) is public: not private, loopback, link-local, reserved, multicast, or carrying such an IPv4 address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPublicIpv4(ipv4Value(address));
  if (family === 6) return isPublicIpv6(ipv6Value(address));
  return false;
}

/** Whether a URL's host may be a delivery target: an IP literal must be public; names must not be local ones. */
export function isPublicHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host)) return isPublicAddress(host);
  if (!host.includes('.') || host.endsWith('.')) return false;
  return !/(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/.test(host);
}

/** The local stack's extra allowance: plain http to 127.0.0.1 or localhost (any port), nothing else. */
export function isLocalLoopbackUrl(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
}
