import type { Egress, NotificationStrategy } from '@checkline/notification-node';
import { defineNotificationStrategy, hostIssues, renderEmail } from '@checkline/notification-node';
import { SMTP_ADMIN_INSTRUCTIONS } from './admin-instructions.ts';
import { smtpFailure } from './classify.ts';
import type { SmtpConfig, SmtpLayout } from './config.ts';
import { smtpConfig, smtpLayout } from './config.ts';
import { mailOf } from './message.ts';
import type { SmtpTransports } from './transports.ts';

/** Longest body of an e-mail, in characters of each part; longer ones end with an ellipsis. */
const MAX_BODY_LENGTH = 50_000;

/** The `smtp` strategy: e-mail to the user's sign-in address through the administrator's server. */
export function smtpStrategy(
  transports: SmtpTransports,
  egress: Pick<Egress, 'vetHost'>,
): NotificationStrategy<SmtpConfig, unknown, SmtpLayout> {
  return defineNotificationStrategy<SmtpConfig, unknown, SmtpLayout>({
    id: 'smtp',
    displayName: 'E-mail',
    description: 'E-mail through your SMTP server, in your colours and with your logo.',
    icon: 'mail',
    config: smtpConfig,
    layoutConfig: smtpLayout,
    contactResolution: { type: 'auth-email' },
    adminInstructions: SMTP_ADMIN_INSTRUCTIONS,
    validateConfig: (layer) =>
      Promise.resolve(layer.layer === 'config' ? hostIssues(egress, 'host', layer.value.host) : []),
    async send(context) {
      const config = context.strategyConfig;
      const layout = context.layoutConfig ?? smtpLayout.schema.parse({});
      const parts = renderEmail(context.notification, layout, { maxLength: MAX_BODY_LENGTH });
      try {
        await transports.for(config).sendMail(mailOf(context, parts));
        return { success: true };
      } catch (error) {
        return smtpFailure(error, `${config.host}:${config.port}`, [config.password ?? '']);
      }
    },
  });
}
