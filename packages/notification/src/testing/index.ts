export { testChannelPlugin } from './channel-plugin.ts';
export { contactStrategies } from './contact-strategies.ts';
export { recordingStrategy } from './recording-strategy.ts';
export { testStrategy } from './test-strategy.ts';
export { writeStrategySettings, writeUserChannel } from './settings-rows.ts';
export { linkExternalAccount } from '../strategies/settings-store.ts';
export { jsonBody, startFakeService, type FakeAnswer, type FakeService } from './fake-service.ts';
export { loopbackEgress } from './loopback-egress.ts';
export { sendContextFor } from './send-context.ts';
export {
  startLoopbackServer,
  type LoopbackHandler,
  type LoopbackServer,
  type ReceivedRequest,
} from './loopback-server.ts';
export {
  CHANNEL_PLUGIN,
  createUsers,
  qualified,
  startDeliveryFixture,
  useRule,
  type DeliveryProcess,
} from './fixture.ts';
export {
  startOAuthProvider,
  type OAuthProvider,
  type TokenCall,
  type RevocationCall,
} from './oauth-provider.ts';
