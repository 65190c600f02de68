import type { z } from 'zod';
import { ANY_KEY, markedFields } from './field-paths.ts';

/** A destination field: its path, and the value it takes when left out (its default). */
export interface DestinationField {
  path: readonly string[];
  fallback: unknown;
}

/** The secrets of a config and the destinations they are bound to. */
export interface BoundSecretFields {
  secrets: readonly (readonly string[])[];
  destinations: readonly DestinationField[];
  /** Destinations that users without one of their own are sent to as well. */
  userFallbackDestinations: readonly DestinationField[];
}

const fallbackOf = (schema: z.ZodType): unknown => {
  const result = schema.safeParse(undefined);
  return result.success ? result.data : undefined;
};

const destinationFields = (
  schema: z.ZodType,
  keyword: 'x-destination' | 'x-destination-for-users',
) =>
  markedFields(schema, keyword).map((field) => ({
    path: field.path,
    fallback: fallbackOf(field.schema),
  }));

/** The secrets and destinations `schema` marks with `secret()` and `destination()`. */
export function boundSecretFields(schema: z.ZodType): BoundSecretFields {
  return {
    secrets: markedFields(schema, 'x-secret').map((field) => field.path),
    destinations: destinationFields(schema, 'x-destination'),
    userFallbackDestinations: destinationFields(schema, 'x-destination-for-users'),
  };
}

type Node = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Node => typeof value === 'object' && value !== null;

const childKeys = (node: Node): string[] =>
  Array.isArray(node) ? node.map((_, index) => String(index)) : Object.keys(node);

const childOf = (node: Node, key: string): unknown => (node as Record<string, unknown>)[key];

const valueAt = (root: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((node, key) => (isContainer(node) ? childOf(node, key) : undefined), root);

/**
 * Visits every place a path pattern (`*` for any key) reaches in `root`: `visit` gets the
 * container, the last key and the concrete path. Containers on the way must exist; the last key
 * may be absent.
 */
export function forEachFieldSlot(
  root: unknown,
  pattern: readonly string[],
  visit: (parent: Node, key: string, path: string[]) => void,
): void {
  const walk = (node: unknown, depth: number, path: string[]) => {
    if (!isContainer(node)) return;
    const segment = pattern[depth]!;
    const keys = segment === ANY_KEY ? childKeys(node) : [segment];
    for (const key of keys) {
      if (depth === pattern.length - 1) visit(node, key, [...path, key]);
      else walk(childOf(node, key), depth + 1, [...path, key]);
    }
  };
  if (pattern.length > 0) walk(root, 0, []);
}

/**
 * What a destination value identifies: a URL's scheme, host and port (its path may change), a
 * host name in any case, a port number.
 */
export function destinationIdentity(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return JSON.stringify(value);
  const text = value.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      return `${url.protocol}//${url.host}`.toLowerCase();
    } catch {
      return text.toLowerCase();
    }
  }
  return text.toLowerCase();
}

/** The destination fields whose identity differs between two configs (left-out ones fall back). */
export function changedDestinations(
  before: unknown,
  after: unknown,
  destinations: readonly DestinationField[],
): string[] {
  return destinations
    .filter(({ path, fallback }) => {
      const was = valueAt(before, path) ?? fallback;
      const is = valueAt(after, path) ?? fallback;
      return destinationIdentity(was) !== destinationIdentity(is);
    })
    .map(({ path }) => path.join('.'));
}

/** A config written over a stored one, with what the destination rule dropped. */
export interface SecretMerge {
  value: unknown;
  /** Dotted paths of stored secrets not kept because a destination changed. */
  dropped: string[];
  /** Dotted paths of the destinations that changed. */
  changedDestinations: string[];
}

/**
 * Writes a config sent whole over the stored one (both plain, secrets decrypted or still sealed
 * alike): a secret left out keeps the stored value at its path, an explicit `null` clears it.
 * A secret is bound to the destination it was entered for: when the sent config changes any
 * destination (origin, host or port), a stored secret is kept only if it is sent again, so it
 * never follows the setting to somewhere else. Answers a new value.
 */
export function mergeStoredSecrets(
  input: unknown,
  stored: unknown,
  fields: Pick<BoundSecretFields, 'secrets' | 'destinations'>,
): SecretMerge {
  const merged = structuredClone(input);
  // A destination that is itself a secret and is left out stays what was stored.
  const secretKeys = new Set(fields.secrets.map((path) => path.join('\u0000')));
  const effective = structuredClone(input);
  for (const { path } of fields.destinations) {
    if (!secretKeys.has(path.join('\u0000'))) continue;
    forEachFieldSlot(effective, path, (parent, key, concrete) => {
      if (childOf(parent, key) === undefined)
        (parent as Record<string, unknown>)[key] = valueAt(stored, concrete);
    });
  }
  const changed =
    stored === undefined ? [] : changedDestinations(stored, effective, fields.destinations);
  const dropped: string[] = [];
  for (const pattern of fields.secrets) {
    forEachFieldSlot(merged, pattern, (parent, key, path) => {
      const given = childOf(parent, key);
      const record = parent as Record<string, unknown>;
      if (given === null) {
        if (Array.isArray(parent)) record[key] = undefined;
        else delete record[key];
        return;
      }
      if (given !== undefined) return;
      const kept = valueAt(stored, path);
      if (kept === undefined) return;
      if (changed.length > 0) dropped.push(path.join('.'));
      else record[key] = structuredClone(kept);
    });
  }
  return { value: merged, dropped, changedDestinations: changed };
}
