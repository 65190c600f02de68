export { healthcheckAccess } from './access.ts';
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
export * from './schemas.ts';
export * from './daily-uptime-schemas.ts';
