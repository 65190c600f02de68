export { createSlackChannelPlugin, SLACK_PLUGIN_ID } from './plugin.ts';
export { createSlackStrategy } from './strategy.ts';
export { createSlackOAuth } from './oauth.ts';
