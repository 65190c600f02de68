import type { z } from 'zod';
import type { ContactResolution } from '../strategies/strategy.ts';

/**
 * A contact made of several user-config fields (a push server's URL with its topic or token),
 * since `send` gets the contact but not the user's config: the custom resolution hands `send`
 * the fields `schema` picks, as JSON; a user whose config does not satisfy it has no contact.
 * The contact is never stored or logged, so secret fields may travel in it.
 */
export function userConfigContact(schema: z.ZodType): ContactResolution {
  return {
    type: 'custom',
    resolve: ({ userConfig }) => {
      const parsed = schema.safeParse(userConfig ?? {});
      return Promise.resolve(parsed.success ? JSON.stringify(parsed.data) : undefined);
    },
  };
}

/** The fields a `userConfigContact` contact carries, or undefined when it is not one. */
export function readUserConfigContact<T>(schema: z.ZodType<T>, contact: string): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(contact);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
