import type { ChannelEgress } from '../channels/channel-plugin.ts';

/**
 * An egress for tests: reaches only 127.0.0.1 (the fake services tests start) and follows no
 * redirect; any other address is refused before connecting.
 */
export function loopbackEgress(): ChannelEgress {
  return {
    fetch(url, init) {
      const target = new URL(url);
      if (target.hostname !== '127.0.0.1') {
        return Promise.reject(new Error(`tests reach only loopback, not ${target.hostname}`));
      }
      return fetch(target, { ...init, redirect: 'manual' });
    },
  };
}
