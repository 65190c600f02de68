export { createSmtpChannelPlugin, SMTP_PLUGIN_ID, type SmtpChannelOptions } from './plugin.ts';
export { smtpFailure } from './classify.ts';
export { smtpStrategy } from './strategy.ts';
export { SmtpTransports } from './transports.ts';
export {
  DEFAULT_FOOTER_TEXT,
  DEFAULT_PRIMARY_COLOR,
  smtpConfig,
  smtpLayout,
  type SmtpConfig,
  type SmtpLayout,
} from './config.ts';
export type { SmtpTlsOptions } from './transports.ts';
