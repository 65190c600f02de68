import ipaddr from 'ipaddr.js';
import type { Address } from './address.ts';

/** What every address in a refused range is, for messages. */
interface Refusal {
  range: [Address, number];
  what: string;
}

const refuse = (cidr: string, what: string): Refusal => ({ range: ipaddr.parseCIDR(cidr), what });

/**
 * Ranges refused unless the operator allows them (CHECK_TARGETS_ALLOW). The metadata addresses
 * are listed on their own, so allowing link-local as a whole still leaves them refused.
 */
export const builtInRefusals: readonly Refusal[] = [
  refuse('127.0.0.0/8', 'a loopback address'),
  refuse('::1/128', 'a loopback address'),
  // Connecting to "this host" reaches the server's own services.
  refuse('0.0.0.0/8', 'an unspecified address'),
  refuse('::/128', 'an unspecified address'),
  refuse('169.254.0.0/16', 'a link-local address'),
  refuse('fe80::/10', 'a link-local address'),
  refuse('169.254.169.254/32', 'a cloud metadata address'),
  refuse('fd00:ec2::254/128', 'a cloud metadata address'),
  refuse('100.100.100.200/32', 'a cloud metadata address'),
];

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
