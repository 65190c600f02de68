import {
  QualifiedRegistry,
  badRequest,
  createExtensionPoint,
  publishedJsonSchema,
} from '@checkline/core';
import { z } from 'zod';
import type { HealthCheckTypeInfo } from './schemas.ts';
import type { CheckTarget } from './check-targets.ts';
import { refusedTargets } from './check-targets.ts';
import type { Database } from '@checkline/db';
import type { TargetPolicy } from '@checkline/net';

/** What one run of a check found. */
export interface CheckOutcome {
  /** `warn`: working, but close to failing (a certificate about to expire); the system is degraded. */
  status: 'pass' | 'warn' | 'fail';
  latencyMs: number;
  message: string;
  /**
   * Milliseconds the run waited in our own queue (for a connection slot to the target's
   * origin) before it reached the target; not part of `latencyMs` nor of the timeout.
   */
  queueWaitMs?: number;
}

/** A wait of the run in our own queue, with the run's timeout stopped meanwhile. */
export type QueuedWait = <T>(wait: (signal: AbortSignal) => Promise<T>) => Promise<T>;

export interface RunOptions {
  /** Aborted when the run must stop: its timeout passed or the server is shutting down. */
  signal: AbortSignal;
  /** The check's timeout; a type may stop sooner, never later. */
  timeoutMs: number;
  /**
   * The operator's target policy. A type that connects vets every host with it right before
   * connecting (each redirect hop too) and connects through the vetted target's `lookup`.
   */
  targets: TargetPolicy;
  /** The check being run, for types that keep state of their own per check (heartbeat). */
  healthCheckId?: string;
  /**
   * Where such a type reads that state: the scheduler's root database, or the caller's
   * transaction for `runHealthCheck`. Present whenever `healthCheckId` is.
   */
  db?: Database;
  /**
   * Waits for what the run needs before it reaches its target (a connection slot) with the
   * timeout stopped; the time is reported as the outcome's `queueWaitMs`. The wait's signal
   * aborts on cancellation and when the run could not start in time (a `LateStartError`).
   * Absent when a type is run on its own: then the wait is only cancellable by `signal`'s parent.
   */
  queued?: QueuedWait;
}

/** A kind of health check: how its config looks and how one run is done. */
export interface HealthCheckType<TConfig = unknown> {
  /** Lowercase letters, digits and dashes; qualified as `{ownerPluginId}.{id}` when registered. */
  id: string;
  displayName: string;
  description?: string;
  /**
   * Validates a check's config and fills its defaults: a `z.object`, made strict on registration
   * so that an unknown key is refused rather than dropped.
   */
  config: z.ZodType<TConfig>;
  /**
   * The hosts a config connects to, with the field naming each. The target policy judges them
   * when a check is saved and before every run; a type that connects must list them.
   */
  targets?(config: TConfig): CheckTarget[];
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

/** The type with a config schema that refuses unknown keys; throws unless it is an object. */
function withStrictConfig<TConfig>(type: HealthCheckType<TConfig>): HealthCheckType {
  if (!(type.config instanceof z.ZodObject)) {
    throw new Error(`Health check type ${type.id}: config must be a z.object() schema`);
  }
  return { ...type, config: type.config.strict() };
}

/** The extension point's API for one registering plugin. */
export function checkTypeExtensionFor(
  registry: HealthCheckTypeRegistry,
  callerPluginId: string,
): HealthCheckTypeExtension {
  return {
    register(type) {
      const { qualifiedId } = registry.register(callerPluginId, withStrictConfig(type));
      return { qualifiedId };
    },
  };
}

export function describeCheckTypes(registry: HealthCheckTypeRegistry): HealthCheckTypeInfo[] {
  return registry.list().map((type) => ({
    id: type.qualifiedId,
    displayName: type.displayName,
    description: type.description ?? '',
    configSchema: publishedJsonSchema(type.config),
  }));
}

const configIssues = (issues: readonly z.core.$ZodIssue[]) =>
  issues.flatMap((issue) => {
    const at = ['config', ...issue.path.map(String)];
    if (issue.code !== 'unrecognized_keys') {
      return [{ path: at.join('.'), message: issue.message }];
    }
    return issue.keys.map((key) => ({
      path: [...at, key].join('.'),
      message: `Unknown key "${key}"`,
    }));
  });

/**
 * A check's config validated by its type, defaults filled, its targets judged by the policy;
 * BAD_REQUEST listing every problem under `config`.
 */
export async function parseCheckConfig(
  registry: HealthCheckTypeRegistry,
  policy: TargetPolicy,
  typeId: string,
  config: unknown,
): Promise<Record<string, unknown>> {
  const type = registry.get(typeId);
  if (!type) {
    const known = registry.list().map((entry) => entry.qualifiedId);
    throw badRequest(`Unknown health check type "${typeId}"`, [
      { path: 'type', message: `Must be one of: ${known.join(', ')}` },
    ]);
  }
  const parsed = type.config.safeParse(config);
  if (!parsed.success) {
    throw badRequest(`Invalid config for ${typeId}`, configIssues(parsed.error.issues));
  }
  const refused = await refusedTargets(policy, type.targets?.(parsed.data) ?? []);
  if (refused.length > 0) throw badRequest(`Target refused for ${typeId}`, refused);
  return parsed.data as Record<string, unknown>;
}
