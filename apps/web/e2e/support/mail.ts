import type { ReceivedMail, SmtpTestServer } from '@checkline/notification-smtp/testing';
import { expect } from 'vitest';
import type { UiServer } from './ui-server.ts';

export const SMTP_STRATEGY = 'notification-smtp.smtp';

/** Switches the e-mail channel on, sending from `fromAddress` through the test's SMTP server. */
export async function enableSmtpChannel(
  ui: UiServer,
  admin: Record<string, string>,
  smtp: SmtpTestServer,
  fromAddress: string,
): Promise<void> {
  await ui.call(
    'notification',
    'updateStrategy',
    {
      strategyId: SMTP_STRATEGY,
      enabled: true,
      config: { host: 'localhost', port: smtp.port, secure: false, fromAddress },
    },
    admin,
  );
}

/** The first mail received that matches, waiting (bounded by `timeout`) for it to arrive. */
export async function firstMail(
  smtp: SmtpTestServer,
  matches: (message: ReceivedMail) => boolean,
  { timeout, interval = 250 }: { timeout: number; interval?: number },
): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        found = smtp.received.find(matches);
        return found !== undefined;
      },
      { timeout, interval },
    )
    .toBe(true);
  return found!;
}
