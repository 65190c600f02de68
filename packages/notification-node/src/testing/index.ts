export { jsonBody, startFakeService, type FakeAnswer, type FakeService } from './fake-service.ts';
export { loopbackEgress } from './loopback-egress.ts';
export { sendContextFor } from './send-context.ts';
export {
  startLoopbackServer,
  type LoopbackHandler,
  type LoopbackServer,
  type ReceivedRequest,
} from '@checkline/net/testing';
export { adversarialMarkdown, ordinaryMarkdown } from './adversarial-markdown.ts';
