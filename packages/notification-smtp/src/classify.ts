import type { DeliveryResult } from '@checkline/notification-node';
import { TargetRefusedError } from '@checkline/notification-node';

/** What nodemailer puts on its errors (and Node on socket errors). */
interface SmtpErrorFields {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
}

/** Nodemailer codes of a configuration or address problem that no retry will mend. */
const PERMANENT_CODES = new Set(['ECONFIG', 'EENVELOPE', 'EREQUIRETLS', 'ENOAUTH']);

const MAX_REPLY = 300;

/** `text` on one line, cut to length, with every `secrets` value (and its base64) blanked out. */
function redacted(text: string, secrets: readonly string[]): string {
  let line = text.replace(/\s+/g, ' ').trim();
  for (const value of secrets) {
    if (!value) continue;
    for (const form of [value, Buffer.from(value).toString('base64')]) {
      line = line.split(form).join('[redacted]');
    }
  }
  return line.slice(0, MAX_REPLY);
}

/**
 * What a failed SMTP send amounts to. A reply code decides when there is one: 5xx (550 recipient
 * rejected, 554 refused) is permanent, 4xx (421, 451, 452) worth another attempt. Without one
 * the server was not reached or dropped us (ECONNREFUSED, ETIMEDOUT, ECONNRESET, a greeting
 * timeout): retried, unless the code names a problem of our settings or the address. The error
 * quotes the server's reply; `secrets` (the password) never appear in it.
 */
export function smtpFailure(
  error: unknown,
  server: string,
  secrets: readonly string[] = [],
): DeliveryResult {
  // The egress guard refused the host: no connection was made, and waiting will not change it.
  if (error instanceof TargetRefusedError) {
    return { success: false, error: `SMTP server ${server}: ${error.message}`, permanent: true };
  }
  const fields: SmtpErrorFields = typeof error === 'object' && error !== null ? error : {};
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const reply = typeof fields.response === 'string' ? fields.response : undefined;
  const message = typeof fields.message === 'string' ? fields.message : String(error);
  const responseCode = typeof fields.responseCode === 'number' ? fields.responseCode : undefined;

  if (responseCode !== undefined && responseCode >= 400) {
    const answered = `SMTP server ${server} answered ${redacted(reply ?? message, secrets)}`;
    return responseCode >= 500
      ? { success: false, error: answered, permanent: true }
      : { success: false, error: answered };
  }
  const detail = redacted(message, secrets);
  const failed = `SMTP server ${server} ${code ? `failed (${code}): ` : 'failed: '}${detail}`;
  return code && PERMANENT_CODES.has(code)
    ? { success: false, error: failed, permanent: true }
    : { success: false, error: failed };
}
