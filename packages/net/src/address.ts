import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A host as a URL or a config writes it, compared without case, brackets or a final dot. */
export const normalizeHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/**
 * `text` as an IP address, or undefined: IPv4 in any form the system's resolver also reads
 * (`127.1`, `0x7f000001`), IPv6 as written (an embedded IPv4 address is judged through
 * `reachedAddresses`, whatever the spelling).
 */
export function parseAddress(text: string): Address | undefined {
  if (text.includes(':')) return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : undefined;
  return ipaddr.IPv4.isValid(text) ? ipaddr.IPv4.parse(text) : undefined;
}

/** The host as an IP address when it is one (see `parseAddress`). */
export const literalAddress = (host: string): Address | undefined =>
  parseAddress(normalizeHost(host));

/** Where a socket to `address` connects: an IPv4-mapped address as the IPv4 address it maps. */
export function connectionAddress(address: Address): Address {
  const ipv6 = address as ipaddr.IPv6;
  return address.kind() === 'ipv6' && ipv6.isIPv4MappedAddress() ? ipv6.toIPv4Address() : address;
}

/** The four bytes of an IPv4 address inside an IPv6 address's sixteen. */
type Embedding = (bytes: number[]) => number[];

const lastFour: Embedding = (bytes) => bytes.slice(12, 16);

/**
 * IPv6 ranges that carry an IPv4 address, and where: a connection to such an address ends at
 * (or is translated to) that IPv4 address, so the policy judges it too.
 */
const embeddings: readonly { range: [ipaddr.IPv6, number]; ipv4: Embedding }[] = [
  // IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks).
  { range: ipaddr.IPv6.parseCIDR('::/96'), ipv4: lastFour },
  // IPv4-mapped (::ffff:a.b.c.d) when it reaches us unprocessed.
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), ipv4: lastFour },
  // SIIT IPv4-translated (::ffff:0:a.b.c.d, RFC 6145).
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), ipv4: lastFour },
  // NAT64: the well-known prefix (RFC 6052) and the local-use one (RFC 8215) as /96 prefixes.
  { range: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), ipv4: lastFour },
  { range: ipaddr.IPv6.parseCIDR('64:ff9b:1::/48'), ipv4: lastFour },
  // 6to4 (2002:aabb:ccdd::/48 leads to a.b.c.d's network).
  { range: ipaddr.IPv6.parseCIDR('2002::/16'), ipv4: (bytes) => bytes.slice(2, 6) },
  // Teredo: the client's address, its bits inverted, in the last 32 bits.
  {
    range: ipaddr.IPv6.parseCIDR('2001::/32'),
    ipv4: (bytes) => bytes.slice(12, 16).map((byte) => byte ^ 0xff),
  },
];

/** `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones. */
const ownAddresses = [ipaddr.IPv6.parse('::'), ipaddr.IPv6.parse('::1')];

/**
 * The IPv4 address an IPv6 address carries (IPv4-compatible, IPv4-mapped, SIIT, NAT64, 6to4,
 * Teredo), or undefined when it carries none.
 */
export function embeddedIPv4(address: Address): ipaddr.IPv4 | undefined {
  if (address.kind() !== 'ipv6') return undefined;
  const ipv6 = address as ipaddr.IPv6;
  if (ownAddresses.some((own) => own.toNormalizedString() === ipv6.toNormalizedString())) {
    return undefined;
  }
  const embedding = embeddings.find(({ range }) => ipv6.match(range));
  return embedding && new ipaddr.IPv4(embedding.ipv4(ipv6.toByteArray()));
}

/**
 * The addresses a connection to `address` reaches, the IPv4 address it carries first (so every
 * spelling of one IPv4 address is refused with the same reason), then itself. The policy judges
 * every one of them: this is the one classification of an address for every caller.
 */
export function reachedAddresses(address: Address): Address[] {
  const ipv4 = embeddedIPv4(address);
  return ipv4 ? [ipv4, address] : [address];
}
