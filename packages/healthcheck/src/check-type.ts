import { QualifiedRegistry, badRequest, createExtensionPoint } from '@checkline/core';
import { z } from 'zod';
import type { HealthCheckTypeInfo } from './schemas.ts';

/** What one run of a check found. */
export interface CheckOutcome {
  status: 'pass' | 'fail';
  latencyMs: number;
  message: string;
}

export interface RunOptions {
  /** Aborted when the run must stop: its timeout passed or the server is shutting down. */
  signal: AbortSignal;
  /** The check's timeout; a type may stop sooner, never later. */
  timeoutMs: number;
}

/** A kind of health check: how its config looks and how one run is done. */
export interface HealthCheckType<TConfig = unknown> {
  /** Lowercase letters, digits and dashes; qualified as `{ownerPluginId}.{id}` when registered. */
  id: string;
  displayName: string;
  description?: string;
  /** Validates a check's config and fills its defaults. */
  config: z.ZodType<TConfig>;
  /** Runs the check once. Failures of the target are a `fail` outcome, not a rejection. */
  run(config: TConfig, options: RunOptions): Promise<CheckOutcome>;
}

/** Keeps the config's type between `config` and `run` where a type is written. */
export const defineHealthCheckType = <TConfig>(type: HealthCheckType<TConfig>) => type;

/** What a plugin gets from the extension point in its `register`. */
export interface HealthCheckTypeExtension {
  /** Adds a check type as `{yourPluginId}.{type.id}`; throws on a duplicate or after start-up. */
  register<TConfig>(type: HealthCheckType<TConfig>): { qualifiedId: string };
}

export const healthCheckTypeExtensionPoint =
  createExtensionPoint<HealthCheckTypeExtension>('healthcheck.check-types');

export type HealthCheckTypeRegistry = QualifiedRegistry<HealthCheckType>;

export function createHealthCheckTypeRegistry(): HealthCheckTypeRegistry {
  return new QualifiedRegistry<HealthCheckType>('Health check types');
}

/** The extension point's API for one registering plugin. */
export function checkTypeExtensionFor(
  registry: HealthCheckTypeRegistry,
  callerPluginId: string,
): HealthCheckTypeExtension {
  return {
    register(type) {
      const { qualifiedId } = registry.register(callerPluginId, type as HealthCheckType);
      return { qualifiedId };
    },
  };
}

export function describeCheckTypes(registry: HealthCheckTypeRegistry): HealthCheckTypeInfo[] {
  return registry.list().map((type) => ({
    id: type.qualifiedId,
    displayName: type.displayName,
    description: type.description ?? '',
    configSchema: z.toJSONSchema(type.config, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >,
  }));
}

/** A check's config validated by its type, defaults filled; BAD_REQUEST listing every problem. */
export function parseCheckConfig(
  registry: HealthCheckTypeRegistry,
  typeId: string,
  config: unknown,
): Record<string, unknown> {
  const type = registry.get(typeId);
  if (!type) {
    const known = registry.list().map((entry) => entry.qualifiedId);
    throw badRequest(`Unknown health check type "${typeId}"`, [
      { path: 'type', message: `Must be one of: ${known.join(', ')}` },
    ]);
  }
  const parsed = type.config.safeParse(config);
  if (!parsed.success) {
    throw badRequest(
      `Invalid config for ${typeId}`,
      parsed.error.issues.map((issue) => ({
        path: ['config', ...issue.path.map(String)].join('.'),
        message: issue.message,
      })),
    );
  }
  return parsed.data as Record<string, unknown>;
}
