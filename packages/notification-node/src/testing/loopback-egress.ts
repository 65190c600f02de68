import type { Egress } from '@checkline/net';
import { createEgress } from '@checkline/net';

/** The hosts of the fake services tests start; `localhost` for certificates issued to it. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

const onlyLoopbackHost = (host: string) => {
  if (!LOOPBACK_HOSTS.has(host)) throw new Error(`tests reach only loopback, not ${host}`);
};

const onlyLoopback = (url: string) => onlyLoopbackHost(new URL(url).hostname);

/**
 * The egress guard allowing private addresses, for tests, reaching only 127.0.0.1 (the fake
 * services tests start; `localhost` too): any other host is refused before connecting.
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
    async vetHost(host, options) {
      onlyLoopbackHost(host);
      await egress.vetHost(host, options);
    },
    async connect(host, port, options) {
      onlyLoopbackHost(host);
      return egress.connect(host, port, options);
    },
  };
}
