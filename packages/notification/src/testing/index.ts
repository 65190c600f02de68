export { testChannelPlugin } from './channel-plugin.ts';
export { recordingStrategy } from './recording-strategy.ts';
export { testStrategy } from './test-strategy.ts';
export { writeStrategySettings, writeUserChannel } from './settings-rows.ts';
export { linkExternalAccount } from '../strategies/settings-store.ts';
