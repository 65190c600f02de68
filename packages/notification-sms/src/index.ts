export { createSmsChannelPlugin, SMS_PLUGIN_ID } from './plugin.ts';
export { createSmsStrategy } from './strategy.ts';
export { smsSize, type SmsSize } from './segments.ts';
