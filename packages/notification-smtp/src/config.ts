import { color, destination, secret, versionedSchema } from '@checkline/notification-node';
import { z } from 'zod';

/** One header line: no CR or LF, so a setting can never add a header of its own. */
const headerText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\r\n]*$/, 'Must be a single line');

/** The administrator's SMTP settings (the seed's `smtp` config, version 1). */
export const smtpConfig = versionedSchema({
  version: 1,
  schema: z
    .object({
      host: destination(headerText(253).min(1)).describe('The SMTP server, e.g. smtp.example.com.'),
      port: destination(z.number().int().min(1).max(65_535)).default(587),
      secure: z
        .boolean()
        .default(false)
        .describe('TLS from the first byte (port 465); false upgrades with STARTTLS when offered.'),
      username: secret().optional().describe('The SMTP user name, when the server asks for one.'),
      password: secret().optional().describe('The SMTP password; sent only over TLS.'),
      fromAddress: z.email().describe('The sender address of every message.'),
      fromName: headerText(200).optional().describe('The sender name shown by mail clients.'),
    })
    .refine((config) => (config.username === undefined) === (config.password === undefined), {
      message: 'Give both username and password, or neither',
      path: ['password'],
    }),
});

export type SmtpConfig = z.infer<typeof smtpConfig.schema>;

/** The shared e-mail layout's own default, so an unset colour looks the same everywhere. */
export const DEFAULT_PRIMARY_COLOR = '#2563eb';
export const DEFAULT_FOOTER_TEXT =
  'You receive this message because of your notification settings in Checkline.';

/** The administrator's branding of every e-mail (the seed's `smtp` layoutConfig, version 1). */
export const smtpLayout = versionedSchema({
  version: 1,
  schema: z.object({
    logoUrl: z
      .url({ protocol: /^https?$/ })
      .max(2_000)
      .optional()
      .describe('Shown at most 200 px wide at the top of each message.'),
    primaryColor: color()
      .default(DEFAULT_PRIMARY_COLOR)
      .describe('Header and links of each message.'),
    accentColor: color().optional().describe('Buttons; the primary colour when unset.'),
    footerText: z.string().max(1_000).default(DEFAULT_FOOTER_TEXT),
  }),
});

export type SmtpLayout = z.infer<typeof smtpLayout.schema>;
