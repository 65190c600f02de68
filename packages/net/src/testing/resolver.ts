import { isIP } from 'node:net';
import type { ResolvedAddress, Resolver } from '../resolver.ts';

/**
 * A resolver answering from a fixed table, so tests decide what a name resolves to and never ask
 * real DNS. A name missing from the table fails as DNS does (ENOTFOUND). `calls` lists each name
 * asked, in order.
 */
export function fixedResolver(table: Record<string, readonly string[]>) {
  const calls: string[] = [];
  const resolve: Resolver = async (host) => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    }
    return addresses.map((address): ResolvedAddress => ({
      address,
      family: isIP(address) === 6 ? 6 : 4,
    }));
  };
  return Object.assign(resolve, { calls });
}
