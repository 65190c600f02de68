import { z } from 'zod';

export type Mark = 'x-secret' | 'x-color' | 'x-destination' | 'x-destination-for-users';

/**
 * Marks are zod metadata. zod hands metadata on to the copies `describe` and `meta` make (and
 * wrappers such as `optional` keep the marked schema inside), so a mark survives them; checks
 * added after marking (`secret().min(3)`) make a new schema without it: refine first, then mark.
 */
function mark<T extends z.ZodType>(schema: T, marks: Partial<Record<Mark, true>>): T {
  return schema.meta(marks);
}

/** Whether `schema` itself (or what it was copied from) carries `keyword`. */
export function hasMark(schema: z.ZodType, keyword: Mark): boolean {
  const meta: Record<string, unknown> | undefined = z.globalRegistry.get(schema);
  return meta?.[keyword] === true;
}

/**
 * A field that is a secret: a password input in generated forms; the server encrypts it at rest
 * and never returns it. By default a non-empty string.
 */
export function secret<T extends z.ZodType = z.ZodString>(schema?: T): T {
  return mark(schema ?? (z.string().min(1) as unknown as T), { 'x-secret': true });
}

/**
 * A field naming where the secrets of its config are sent (a URL, a host, a port). A secret is
 * bound to the destination it was entered for: an update that changes a destination's origin,
 * host or port drops the stored secrets it does not give again. `usersFallBackToIt`: users who
 * name no destination of their own, and linked accounts' tokens, are sent here too, so changing
 * it also drops their secrets and links.
 */
export function destination<T extends z.ZodType>(
  schema: T,
  options: { usersFallBackToIt?: boolean } = {},
): T {
  return mark(schema, {
    'x-destination': true,
    ...(options.usersFallBackToIt === true && { 'x-destination-for-users': true as const }),
  });
}

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A colour as `#rgb` or `#rrggbb`, nothing else; a colour picker in generated forms. */
export function color() {
  return mark(z.string().regex(HEX_COLOR, 'Expected a colour as #rgb or #rrggbb'), {
    'x-color': true,
  });
}
