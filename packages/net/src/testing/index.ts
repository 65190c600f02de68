export {
  startLoopbackServer,
  type LoopbackHandler,
  type LoopbackServer,
  type ReceivedRequest,
} from './loopback-server.ts';
export { embeddedSpellings } from './embedded-spellings.ts';
export { fixedResolver } from './resolver.ts';
export { recordClientSockets } from './sockets.ts';
export { recordConnectAttempts, type ConnectAttempt } from './connect-attempts.ts';
