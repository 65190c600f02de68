import { secretFieldPaths } from '@checkline/core';
import type { z } from 'zod';

export const REDACTED = '[redacted]';

/** Shorter values are left alone: blanking every "ab" would garble the message for no gain. */
const MIN_SECRET_LENGTH = 3;

/** A run of characters that may be base64 (standard or URL-safe), long enough to hide a secret. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{6,}={0,2}/g;

/** Every value at `schema`'s secret paths in `value` (`*` reaches each element or entry). */
export function secretValuesOf(schema: z.ZodType | undefined, value: unknown): string[] {
  if (!schema || value === undefined || value === null) return [];
  const found: string[] = [];
  const walk = (node: unknown, path: readonly string[]) => {
    if (node === undefined || node === null) return;
    if (path.length === 0) {
      found.push(typeof node === 'string' ? node : JSON.stringify(node));
      return;
    }
    if (typeof node !== 'object') return;
    const [key, ...rest] = path;
    const children = key === '*' ? Object.values(node) : [(node as Record<string, unknown>)[key!]];
    for (const child of children) walk(child, rest);
  };
  for (const path of secretFieldPaths(schema)) walk(value, path);
  return found;
}

/** Parts of a URL long enough to be a credential (a webhook token, a signature). */
const CREDENTIAL_PART_LENGTH = 16;

/**
 * A secret that is a URL (a Teams or Discord webhook) is secret in its parts too: a service
 * echoes the path and query it was called with, not the whole address.
 */
function withUrlParts(secret: string): string[] {
  let url: URL;
  try {
    url = new URL(secret);
  } catch {
    return [secret];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [secret];
  const parts = [
    `${url.pathname}${url.search}`,
    url.search.slice(1),
    ...url.pathname.split('/'),
    ...[...url.searchParams.values()],
  ].filter((part) => part.length >= CREDENTIAL_PART_LENGTH);
  return [secret, ...parts];
}

/** The base64 text of `bytes` that stays the same wherever they sit in a longer base64 stream. */
function alignedBase64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [0, 1, 2].flatMap((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // Characters touched by the padding bytes before, or by unknown bytes after, vary.
    const start = Math.ceil((shift * 4) / 3);
    const end = Math.floor(((shift + bytes.length) * 4) / 3);
    const core = encoded.slice(start, end);
    return core.length >= 6 ? [core, core.replace(/\+/g, '-').replace(/\//g, '_')] : [];
  });
}

/** `run` decoded from each of the four places a base64 quantum may start in it. */
function decodings(run: string): Buffer[] {
  const standard = run.replace(/-/g, '+').replace(/_/g, '/');
  return [0, 1, 2, 3].map((offset) => Buffer.from(standard.slice(offset), 'base64'));
}

/**
 * `text` with every `secrets` value blanked out, in the forms a service may echo it in: raw,
 * URL-encoded (also with `+` for spaces), and base64 — alone, inside a longer base64 blob (an
 * SMTP `AUTH PLAIN` answer, a `user:secret` Basic header), standard or URL-safe. A secret URL's
 * path, query and long parts count as secrets of their own.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const values = [
    ...new Set(
      secrets.flatMap(withUrlParts).filter((secret) => secret.length >= MIN_SECRET_LENGTH),
    ),
  ];
  if (values.length === 0) return text;
  const plainForms = values.flatMap((secret) => {
    const encoded = encodeURIComponent(secret);
    return [secret, encoded, encoded.replace(/%20/g, '+'), ...alignedBase64Cores(secret)];
  });
  let scrubbed = text;
  for (const form of [...new Set(plainForms)].sort((a, b) => b.length - a.length)) {
    scrubbed = scrubbed.split(form).join(REDACTED);
  }
  // A base64 run whose decoding holds a secret goes as a whole (short secrets have no stable core).
  const needles = values.map((secret) => Buffer.from(secret));
  return scrubbed.replace(BASE64_RUN, (run) =>
    decodings(run).some((decoded) => needles.some((needle) => decoded.includes(needle)))
      ? REDACTED
      : run,
  );
}
