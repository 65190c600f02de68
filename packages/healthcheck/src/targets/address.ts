import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** NAT64's well-known prefix (RFC 6052): its last 32 bits are an IPv4 address it reaches. */
const nat64 = ipaddr.parseCIDR('64:ff9b::/96');

/** A host as a URL or a config writes it, compared without case, brackets or a final dot. */
export const normalizeHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/**
 * The host as an IP address when it is one, in any form the system's resolver would also read as
 * one (`127.1`, `0x7f000001`, `::ffff:7f00:1`); IPv4-mapped IPv6 comes back as its IPv4 address.
 */
export function literalAddress(host: string): Address | undefined {
  const text = normalizeHost(host);
  return ipaddr.isValid(text) ? ipaddr.process(text) : undefined;
}

/**
 * The addresses a connection to `address` reaches: itself, and for a NAT64 address the IPv4
 * address behind it. The policy judges every one of them.
 */
export function reachedAddresses(address: Address): Address[] {
  if (address.kind() === 'ipv6' && address.match(nat64)) {
    const bytes = (address as ipaddr.IPv6).toByteArray().slice(12);
    return [address, new ipaddr.IPv4(bytes)];
  }
  return [address];
}
