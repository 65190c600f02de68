export { createDiscordChannelPlugin, DISCORD_PLUGIN_ID } from './plugin.ts';
export { createDiscordStrategy } from './strategy.ts';
export { DISCORD_WEBHOOK_HOSTS } from './config.ts';
