import ipaddr from 'ipaddr.js';
import type { Address } from './address.ts';

/** What every address in a refused range is, for messages. */
interface Refusal {
  range: [Address, number];
  what: string;
  /** No setting lifts this refusal in its set: its message names none. */
  final?: boolean;
}

const refuse = (cidr: string, what: string): Refusal => ({ range: ipaddr.parseCIDR(cidr), what });

/** Cloud metadata services: credentials of the machine itself. */
const metadataRefusals: readonly Refusal[] = [
  refuse('169.254.169.254/32', 'a cloud metadata address'),
  refuse('fd00:ec2::254/128', 'a cloud metadata address'),
  refuse('100.100.100.200/32', 'a cloud metadata address'),
];

/**
 * Ranges refused unless the operator allows them (CHECK_TARGETS_ALLOW). The metadata addresses
 * are listed on their own, so allowing link-local as a whole still leaves them refused.
 */
const builtInRefusals: readonly Refusal[] = [
  refuse('127.0.0.0/8', 'a loopback address'),
  refuse('::1/128', 'a loopback address'),
  // Connecting to "this host" reaches the server's own services.
  refuse('0.0.0.0/8', 'an unspecified address'),
  refuse('::/128', 'an unspecified address'),
  refuse('169.254.0.0/16', 'a link-local address'),
  refuse('fe80::/10', 'a link-local address'),
  ...metadataRefusals,
];

/**
 * Everything but the public internet: the ranges above, private networks, shared (CGNAT),
 * multicast and the ranges IANA reserves for special use. For outgoing calls that users aim
 * (webhooks), where an on-premise target is the exception.
 */
const nonPublicRefusals: readonly Refusal[] = [
  ...builtInRefusals.filter((refusal) => !metadataRefusals.includes(refusal)),
  // Lifting the refusal of private addresses leaves these refused: see the `metadata` set.
  ...metadataRefusals.map((refusal) => ({ ...refusal, final: true })),
  refuse('10.0.0.0/8', 'a private address'),
  refuse('172.16.0.0/12', 'a private address'),
  refuse('192.168.0.0/16', 'a private address'),
  refuse('fc00::/7', 'a private address'),
  refuse('64:ff9b:1::/48', 'a private address'),
  refuse('100.64.0.0/10', 'a shared (CGNAT) address'),
  refuse('224.0.0.0/4', 'a multicast address'),
  refuse('ff00::/8', 'a multicast address'),
  refuse('192.0.0.0/24', 'a reserved address'),
  refuse('192.0.2.0/24', 'a reserved address'),
  refuse('192.88.99.0/24', 'a reserved address'),
  refuse('198.18.0.0/15', 'a reserved address'),
  refuse('198.51.100.0/24', 'a reserved address'),
  refuse('203.0.113.0/24', 'a reserved address'),
  // 240/4 holds the broadcast address 255.255.255.255 as well.
  refuse('240.0.0.0/4', 'a reserved address'),
  refuse('::/96', 'a reserved address'),
  refuse('100::/64', 'a reserved address'),
  refuse('2001::/23', 'a reserved address'),
  refuse('2001:db8::/32', 'a reserved address'),
  // 6to4 and the deprecated site-local range lead into IPv4 or local networks.
  refuse('2002::/16', 'a reserved address'),
  refuse('fec0::/10', 'a reserved address'),
];

/**
 * Which addresses a policy refuses unless allowed: `local` (loopback, link-local, metadata,
 * unspecified: health checks), `non-public` (every address but the public internet) or
 * `metadata` (the cloud metadata services only). Outside `local`, the metadata services are
 * refused for good, their names as well.
 */
export type BuiltInRefusalSet = 'local' | 'non-public' | 'metadata';

export const refusalSets: Readonly<Record<BuiltInRefusalSet, readonly Refusal[]>> = {
  local: builtInRefusals,
  'non-public': nonPublicRefusals,
  metadata: metadataRefusals.map((refusal) => ({ ...refusal, final: true })),
};

/** Names of cloud metadata services, refused whatever they resolve to. */
export const metadataHostNames: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

/** RFC 6761: `localhost` and every name below it are loopback, whatever DNS says. */
export const isLocalhostName = (host: string) =>
  host === 'localhost' || host.endsWith('.localhost');

export const localhostAddresses = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
] as const;
