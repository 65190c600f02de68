export { createTeamsChannelPlugin, TEAMS_PLUGIN_ID } from './plugin.ts';
export { createTeamsStrategy } from './strategy.ts';
export { MICROSOFT_WEBHOOK_HOSTS } from './config.ts';
