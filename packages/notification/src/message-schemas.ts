import { z } from 'zod';

/** How urgent a notification is: colours e-mail headers, orders push priorities. */
export const ImportanceSchema = z
  .enum(['info', 'warning', 'critical'])
  .describe('How urgent: `info`, `warning` or `critical`.');

/** `<plugin>.<kind>`, for example `healthcheck.status_changed`. */
export const NotificationTypeSchema = z
  .string()
  .max(100)
  .regex(/^[a-z][a-z0-9-]*\.[a-z][a-z0-9_.-]*$/, 'Expected <plugin>.<kind>')
  .describe('Kind of notification, `<plugin>.<kind>` (for example `incident.created`).');

/** A path on our own frontend (`/incidents/1`) or an absolute http(s) address. */
export const ActionUrlSchema = z
  .string()
  .max(2_048)
  .refine(
    (url) =>
      (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')) || isHttpUrl(url),
    'Expected a path starting with / or an absolute http(s) URL',
  );

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export const ActionSchema = z
  .object({
    label: z.string().trim().min(1).max(100),
    url: ActionUrlSchema,
  })
  .describe('A call to action: a button in e-mail and chat, a link in text.');

export const TitleSchema = z.string().trim().min(1).max(200);
/**
 * Room for the longest body a chat channel shows whole (Teams, 8 000 characters) with some to
 * spare; e-mail could show more, but an alert longer than this is a report, not a notification.
 */
export const MarkdownSchema = z.string().max(10_000);

/**
 * The seed's Notification, the fields every send procedure takes: notifyUsers as they are here,
 * sendExternal and sendTransactional with the body named `description`, the name producers already send.
 */
export const NotificationContentSchema = z.object({
  title: TitleSchema,
  body: MarkdownSchema.optional().describe('Markdown.'),
  importance: ImportanceSchema.default('info'),
  action: ActionSchema.optional(),
  type: NotificationTypeSchema,
});

export type NotificationContent = z.infer<typeof NotificationContentSchema>;
export type Importance = z.infer<typeof ImportanceSchema>;
export type NotificationAction = z.infer<typeof ActionSchema>;
