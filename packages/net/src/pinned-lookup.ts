import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './resolver.ts';

/**
 * A `lookup` for `net.connect`, `tls.connect` and undici's `connect` option that answers only
 * `addresses`, whatever name it is asked: the connection goes to the addresses the policy
 * checked, and DNS cannot answer differently between the check and the connect.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
    const first = usable[0];
    if (!first) {
      const error = Object.assign(new Error(`No checked address of ${hostname}`), {
        code: 'ENOTFOUND',
      });
      return callback(error, '', 0);
    }
    if (options.all) return callback(null, usable);
    callback(null, first.address, first.family);
  };
}
