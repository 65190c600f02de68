import { testChannelPlugin, testStrategy } from '@checkline/notification/testing';

/** The channel of the delivery benchmark: `bench-channel.noop` sends nothing, at once. */
export const NOOP_STRATEGY_ID = 'bench-channel.noop';
export const NOOP_USE_RULE = 'bench-channel.strategy.noop.use';

export const noopChannelPlugin = testChannelPlugin('bench-channel', [
  testStrategy({
    id: 'noop',
    displayName: 'No-op (benchmark)',
    contactResolution: { type: 'custom', resolve: () => Promise.resolve('nobody') },
    send: () => Promise.resolve({ success: true }),
  }),
]);
