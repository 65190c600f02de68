export {
  embeddedIPv4,
  literalAddress,
  normalizeHost,
  reachedAddresses,
  type Address,
} from './address.ts';
export type { BuiltInRefusalSet } from './built-in-refusals.ts';
export {
  createEgress,
  type Egress,
  type EgressConnectOptions,
  type EgressOptions,
  type EgressRequestInit,
} from './egress.ts';
export {
  CONNECTIONS_PER_ORIGIN,
  closeSharedPinnedAgent,
  pinnedAgent,
  sharedPinnedAgent,
  type PinnedAgent,
  type PinnedAgentOptions,
} from './pinned-agent.ts';
export { pinnedLookup } from './pinned-lookup.ts';
export { readAtMost } from './read-at-most.ts';
export { systemResolver, type ResolvedAddress, type Resolver } from './resolver.ts';
export { safeReturnPath } from './return-path.ts';
export {
  createTargetPolicy,
  TargetRefusedError,
  type TargetPolicy,
  type TargetPolicyOptions,
  type VettedTarget,
} from './target-policy.ts';
export { parseTargetList, type TargetRule } from './target-rules.ts';
