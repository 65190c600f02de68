import type { StrategySendContext } from '@checkline/notification-node';
import type { SmtpConfig, SmtpLayout } from './config.ts';

/** What one e-mail is made of once rendered. */
export interface EmailParts {
  subject: string;
  html: string;
  text: string;
}

/** The message nodemailer sends: multipart (text, then HTML), with RFC 8058 headers when opted-in mail. */
export function mailOf(context: StrategySendContext<SmtpConfig, SmtpLayout>, parts: EmailParts) {
  const { strategyConfig: config, delivery } = context;
  const domain = config.fromAddress.slice(config.fromAddress.lastIndexOf('@') + 1);
  return {
    from: config.fromName
      ? { name: config.fromName, address: config.fromAddress }
      : config.fromAddress,
    to: context.contact,
    subject: parts.subject,
    text: parts.text,
    html: parts.html,
    // The same id on every attempt: a receiving server that got it before may drop the repeat.
    messageId: `<${delivery.id}@${domain}>`,
    date: delivery.createdAt,
    ...(context.unsubscribeUrl && {
      list: { unsubscribe: context.unsubscribeUrl },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }),
  };
}
