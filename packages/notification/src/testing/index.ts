export { testChannelPlugin } from './channel-plugin.ts';
export { contactStrategies } from './contact-strategies.ts';
export { recordingStrategy } from './recording-strategy.ts';
export { testStrategy } from './test-strategy.ts';
export { writeStrategySettings, writeUserChannel } from './settings-rows.ts';
export { linkExternalAccount } from '../strategies/settings-store.ts';
export {
  CHANNEL_PLUGIN,
  configureStrategy,
  createApplications,
  createUsers,
  deliveryMigrations,
  qualified,
  startDeliveryFixture,
  startDeliveryProcess,
  useRule,
  type DeliveryProcess,
} from './fixture.ts';
export {
  startOAuthProvider,
  type OAuthProvider,
  type TokenCall,
  type RevocationCall,
} from './oauth-provider.ts';
