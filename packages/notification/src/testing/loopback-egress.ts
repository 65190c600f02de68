import type { ChannelEgress } from '../channels/channel-plugin.ts';
import { createEgress } from '../egress/egress.ts';

/**
 * The egress guard allowing private addresses, for tests: and reaching only 127.0.0.1 (the fake
 * services tests start); any other host is refused before connecting.
 */
export function loopbackEgress(): ChannelEgress {
  const egress = createEgress({ allowPrivate: true });
  return {
    fetch(url, init) {
      const { hostname } = new URL(url);
      if (hostname !== '127.0.0.1') {
        return Promise.reject(new Error(`tests reach only loopback, not ${hostname}`));
      }
      return egress.fetch(url, init);
    },
  };
}
