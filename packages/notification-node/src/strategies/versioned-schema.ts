import type { z } from 'zod';

/** One step of a versioned schema's history: turns data of `fromVersion` into `toVersion`. */
export interface SchemaMigration {
  fromVersion: number;
  toVersion: number;
  /** What changed, in a sentence; named in errors when the step fails. */
  description: string;
  migrate(data: unknown): unknown;
}

/** A zod schema with its version and the migrations that lead to it from version 1. */
export interface VersionedSchema<T = unknown> {
  /** The current version, an integer from 1. */
  version: number;
  schema: z.ZodType<T>;
  /** Ordered from version 1 to `version`; empty while `version` is 1. */
  migrations: readonly SchemaMigration[];
}

/** Data as it is stored: the version it was written under. */
export interface StoredVersioned {
  version: number;
  data: unknown;
}

/**
 * Throws unless `migrations` lead without gap from version 1 to `version`; `label` names the
 * schema in the message. Migrations are taken in the order given.
 */
export function assertMigrationChain(label: string, versioned: VersionedSchema<unknown>): void {
  const { version, migrations } = versioned;
  if (!Number.isInteger(version) || version < 1) {
    throw new Error(`${label}: version must be an integer from 1, got ${version}`);
  }
  let reached = 1;
  for (const step of migrations) {
    const name = `migration ${step.fromVersion}→${step.toVersion}`;
    if (step.fromVersion !== reached) {
      throw new Error(`${label}: ${name} does not start at version ${reached}, where the chain is`);
    }
    if (!Number.isInteger(step.toVersion) || step.toVersion <= step.fromVersion) {
      throw new Error(`${label}: ${name} must lead to a later integer version`);
    }
    reached = step.toVersion;
  }
  if (reached !== version) {
    throw new Error(
      `${label}: the migrations end at version ${reached}, not at version ${version}`,
    );
  }
}

/** Declares a versioned schema; the migration chain is checked here, once. */
export function versionedSchema<T>(definition: {
  version: number;
  schema: z.ZodType<T>;
  migrations?: readonly SchemaMigration[];
}): VersionedSchema<T> {
  const versioned = { ...definition, migrations: [...(definition.migrations ?? [])] };
  assertMigrationChain('versioned schema', versioned);
  return Object.freeze(versioned);
}

/** Why stored data could not be read under the current version; `step` names where it failed. */
export class VersionedReadError extends Error {
  constructor(
    readonly step: string,
    reason: string,
  ) {
    super(`${step}: ${reason}`);
    this.name = 'VersionedReadError';
  }
}

/**
 * Brings stored data up to the current version, one migration at a time, and validates it.
 * `migrated` says whether any step ran (the caller writes such a value back).
 * Throws {@link VersionedReadError} naming the failing step.
 */
export function readVersioned<T>(
  versioned: VersionedSchema<T>,
  stored: StoredVersioned,
): { value: T; migrated: boolean } {
  const { version, migrations, schema } = versioned;
  if (!Number.isInteger(stored.version) || stored.version < 1 || stored.version > version) {
    throw new VersionedReadError(
      `stored version ${stored.version}`,
      `not a version of this schema (1 to ${version})`,
    );
  }
  let data = stored.data;
  let reached = stored.version;
  for (const step of migrations) {
    if (step.fromVersion < reached) continue;
    const name = `migration ${step.fromVersion}→${step.toVersion} (${step.description})`;
    if (step.fromVersion !== reached) {
      throw new VersionedReadError(name, `stored version ${reached} is not in the chain`);
    }
    try {
      data = step.migrate(data);
    } catch (error) {
      throw new VersionedReadError(name, error instanceof Error ? error.message : String(error));
    }
    reached = step.toVersion;
  }
  if (reached !== version) {
    throw new VersionedReadError(
      `stored version ${stored.version}`,
      `no migration leads from it to version ${version}`,
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    // Only paths and zod's messages: the data may hold secrets.
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new VersionedReadError(`validation against version ${version}`, issues);
  }
  return { value: parsed.data, migrated: reached !== stored.version };
}
