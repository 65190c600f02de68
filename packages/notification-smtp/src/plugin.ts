import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { smtpStrategy } from './strategy.ts';
import type { SmtpTlsOptions } from './transports.ts';
import { SmtpTransports } from './transports.ts';

export const SMTP_PLUGIN_ID = 'notification-smtp';

export interface SmtpChannelOptions {
  /**
   * The guard every SMTP connection goes through, the server's one (WEBHOOK_ALLOW_PRIVATE
   * decides whether a relay on a private address may be used). The host is judged when the
   * settings are saved and before every connection.
   */
  egress: Egress;
  /**
   * Extra TLS settings of every SMTP connection: `ca` trusts a private certificate authority
   * (an internal relay, the tests' self-signed server). Certificates are always verified.
   */
  tls?: SmtpTlsOptions;
}

/**
 * The e-mail channel: registers the strategy `smtp` (`notification-smtp.smtp`) with the
 * notification plugin, which must be mounted before it. Its SMTP connections are pooled per
 * version of the administrator's settings and closed when the server stops.
 */
export function createSmtpChannelPlugin(options: SmtpChannelOptions): AnyPlugin {
  const transports = new SmtpTransports(options.egress, options.tls);
  return createChannelPlugin({
    id: SMTP_PLUGIN_ID,
    description: 'E-mail notifications through an SMTP server (the `smtp` notification strategy).',
    strategy: smtpStrategy(transports, options.egress),
    stop() {
      transports.closeAll();
    },
  });
}
