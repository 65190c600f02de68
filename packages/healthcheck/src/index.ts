export { healthcheckAccess } from './access.ts';
export {
  defineHealthCheckType,
  healthCheckTypeExtensionPoint,
  type CheckOutcome,
  type HealthCheckType,
  type HealthCheckTypeExtension,
  type RunOptions,
} from './check-type.ts';
export { httpCheckType, HttpCheckConfigSchema, type HttpCheckConfig } from './check-types/http.ts';
export { tcpCheckType, TcpCheckConfigSchema, type TcpCheckConfig } from './check-types/tcp.ts';
export { dnsCheckType, DnsCheckConfigSchema, type DnsCheckConfig } from './check-types/dns.ts';
export { tlsCheckType, TlsCheckConfigSchema, type TlsCheckConfig } from './check-types/tls.ts';
export {
  createPostgresCheckType,
  postgresCheckType,
  PostgresCheckConfigSchema,
  type PostgresCheckConfig,
} from './check-types/postgres.ts';
export { HeartbeatCheckConfigSchema, type HeartbeatCheckConfig } from './check-types/heartbeat.ts';
export type { SecretSealer } from './config-secrets.ts';
export { rotateHealthCheckSecrets, type SecretRotationResult } from './secret-rotation.ts';
export { healthcheckContract, type HealthcheckContract } from './contract.ts';
export { healthStatusChanged } from './events.ts';
export {
  createHealthcheckPlugin,
  healthcheckPlugin,
  type HealthcheckPluginOptions,
} from './plugin.ts';
export { createHealthcheckRouter } from './router.ts';
export { defaultRunRateLimit } from './run-rate-limit.ts';
export type { Scheduler, SchedulerSettings } from './scheduler.ts';
export type { CheckTarget } from './targets/check-targets.ts';
export type { BuiltInRefusalSet } from './targets/built-in-refusals.ts';
export { pinnedAgent, type PinnedAgent } from './targets/pinned-agent.ts';
export { systemResolver, type ResolvedAddress, type Resolver } from './targets/resolver.ts';
export {
  createTargetPolicy,
  TargetRefusedError,
  type TargetPolicy,
  type TargetPolicyOptions,
  type VettedTarget,
} from './targets/target-policy.ts';
export { parseTargetList } from './targets/target-rules.ts';
export * from './schemas.ts';
