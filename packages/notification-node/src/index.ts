export { color, destination, hasMark, secret } from './strategies/schema-marks.ts';
export { ANY_KEY, secretFieldPaths } from './strategies/secret-field-paths.ts';
export * from './strategies/strategy.ts';
export * from './strategies/versioned-schema.ts';
export {
  deliveryResultOf,
  isRetryableStatus,
  parseRetryAfter,
  unreachable,
} from './delivery/http-answer.ts';
export { createChannelPlugin } from './channels/channel-plugin.ts';
export {
  callFailure,
  hostIssues,
  layerUrlIssues,
  urlIssues,
  userUrlIssues,
} from './channels/call-failure.ts';
export { callService } from './channels/service-call.ts';
export { hostMatches, refusedServiceUrl } from './channels/host-patterns.ts';
export { refusedByUrlRules, serviceUrlRules } from './channels/url-rules.ts';
export { fitUtf8 } from './channels/utf8-fit.ts';
export * from './render/index.ts';
// Channel authors call out through the egress guard and classify its refusals.
export { TargetRefusedError, type Egress, type EgressRequestInit } from '@checkline/net';
export * from './sources/index.ts';
