import type { Egress } from '../egress/egress.ts';
import { createEgress } from '../egress/egress.ts';

const onlyLoopback = (url: string) => {
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1') throw new Error(`tests reach only loopback, not ${hostname}`);
};

/**
 * The egress guard allowing private addresses, for tests, reaching only 127.0.0.1 (the fake
 * services tests start): any other host is refused before connecting.
 */
export function loopbackEgress(): Egress {
  const egress = createEgress({ allowPrivate: true });
  return {
    async vet(url, options) {
      onlyLoopback(url);
      await egress.vet(url, options);
    },
    async fetch(url, init) {
      onlyLoopback(url);
      return egress.fetch(url, init);
    },
  };
}
