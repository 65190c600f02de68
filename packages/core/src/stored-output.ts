import { createHash } from 'node:crypto';

/** A procedure's output as JSON, with the paths of its `Date`s so they come back as dates. */
export interface StoredOutput {
  json: unknown;
  dates: (string | number)[][];
}

type Path = (string | number)[];

function encodeValue(value: unknown, path: Path, dates: Path[]): unknown {
  if (value instanceof Date) {
    dates.push(path);
    return value.toISOString();
  }
  if (Array.isArray(value))
    return value.map((item, index) => encodeValue(item, [...path, index], dates));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, child]) => child !== undefined)
        .map(([key, child]) => [key, encodeValue(child, [...path, key], dates)]),
    );
  }
  return value;
}

export function encodeOutput(output: unknown): StoredOutput {
  const dates: Path[] = [];
  return { json: encodeValue(output, [], dates) ?? null, dates };
}

export function decodeOutput(stored: StoredOutput): unknown {
  const { json, dates } = structuredClone(stored);
  let root = json;
  for (const path of dates) {
    if (path.length === 0) {
      root = new Date(root as string);
      continue;
    }
    let holder = root as Record<string | number, unknown>;
    for (const segment of path.slice(0, -1)) holder = holder[segment] as typeof holder;
    const last = path.at(-1)!;
    holder[last] = new Date(holder[last] as string);
  }
  return root;
}

function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, child]) => child !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, child]) => [key, canonical(child)]),
    );
  }
  return value;
}

/** SHA-256 of the input with its keys sorted: the same input, however ordered, hashes alike. */
export const inputHash = (input: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(canonical(input ?? null)))
    .digest('base64url');
