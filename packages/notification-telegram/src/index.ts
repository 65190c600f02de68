export { createTelegramChannelPlugin, TELEGRAM_PLUGIN_ID } from './plugin.ts';
export { createTelegramStrategy } from './strategy.ts';
