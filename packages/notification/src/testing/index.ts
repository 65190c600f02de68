export { testChannelPlugin } from './channel-plugin.ts';
export { recordingStrategy } from './recording-strategy.ts';
export { testStrategy } from './test-strategy.ts';
