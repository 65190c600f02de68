/**
 * What a check type is written with: the extension point, and the helpers the built-in types
 * use for their deadline, the target policy, one connection and their outcomes.
 */
export {
  defineHealthCheckType,
  healthCheckTypeExtensionPoint,
  type CheckOutcome,
  type HealthCheckType,
  type HealthCheckTypeExtension,
  type RunOptions,
} from './check-type.ts';
export type { CheckTarget } from './check-targets.ts';
export { isTimeout, withDeadline } from './deadline.ts';
export {
  describeNetworkError,
  elapsedSince,
  fail,
  failure,
  pass,
  warn,
} from './check-types/outcome.ts';
export { readStart } from './check-types/read-start.ts';
export { configTimeoutMs, effectiveTimeout } from './check-types/timeout.ts';
export { checkHost, onceConnected, runAgainstHost } from './check-types/vetted-host.ts';
export type { TargetPolicy, VettedTarget } from '@checkline/net';
