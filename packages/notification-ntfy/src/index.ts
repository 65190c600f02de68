export { createNtfyChannelPlugin, NTFY_PLUGIN_ID } from './plugin.ts';
export { createNtfyStrategy } from './strategy.ts';
