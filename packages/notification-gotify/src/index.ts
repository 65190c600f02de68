export { createGotifyChannelPlugin, GOTIFY_PLUGIN_ID } from './plugin.ts';
export { createGotifyStrategy } from './strategy.ts';
