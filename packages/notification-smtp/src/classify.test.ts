import { describe, expect, it } from 'vitest';
import { smtpFailure } from './classify.ts';

const SERVER = 'mail.example:587';
/** An error shaped as nodemailer gives it for an SMTP reply. */
const replied = (responseCode: number, response: string, code = 'EENVELOPE') =>
  Object.assign(new Error(`Can't send mail - all recipients were rejected: ${response}`), {
    code,
    responseCode,
    response,
  });
const socketError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('smtpFailure', () => {
  describe('works', () => {
    it('makes a 5xx reply permanent and quotes it', () => {
      expect(
        smtpFailure(replied(550, '550 5.1.1 <x@example.com>: Recipient rejected'), SERVER),
      ).toEqual({
        success: false,
        permanent: true,
        error:
          'SMTP server mail.example:587 answered 550 5.1.1 <x@example.com>: Recipient rejected',
      });
    });

    it('retries a 4xx reply', () => {
      const result = smtpFailure(replied(451, '451 4.3.0 Try again later', 'EMESSAGE'), SERVER);
      expect(result).toEqual({
        success: false,
        error: 'SMTP server mail.example:587 answered 451 4.3.0 Try again later',
      });
    });

    it.each([
      ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:2525'],
      ['ETIMEDOUT', 'Greeting never received'],
      ['ECONNRESET', 'read ECONNRESET'],
      ['ECONNECTION', 'Connection closed unexpectedly'],
      ['ESOCKET', 'connect ECONNREFUSED 127.0.0.1:2525'],
    ])('retries an unreachable server (%s)', (code, message) => {
      const result = smtpFailure(socketError(code, message), SERVER);
      expect(result.success).toBe(false);
      expect(result.permanent).toBeUndefined();
      expect(result.error).toBe(`SMTP server ${SERVER} failed (${code}): ${message}`);
    });
  });

  describe('errors', () => {
    it('makes a settings or address problem without a reply permanent', () => {
      expect(smtpFailure(socketError('EENVELOPE', 'No recipients defined'), SERVER).permanent).toBe(
        true,
      );
      expect(smtpFailure(socketError('ECONFIG', 'Invalid port'), SERVER).permanent).toBe(true);
    });

    it('reads a thrown non-error without failing', () => {
      expect(smtpFailure('boom', SERVER)).toEqual({
        success: false,
        error: `SMTP server ${SERVER} failed: boom`,
      });
    });
  });

  describe('security', () => {
    it('never quotes the password, plain or in base64', () => {
      const password = 'hunter2-smtp-secret';
      const echoed = `535 5.7.8 AUTH PLAIN ${Buffer.from(password).toString('base64')} ${password} refused`;
      const result = smtpFailure(replied(535, echoed, 'EAUTH'), SERVER, [password]);
      expect(result.permanent).toBe(true);
      expect(result.error).not.toContain(password);
      expect(result.error).not.toContain(Buffer.from(password).toString('base64'));
      expect(result.error).toContain('[redacted]');
    });

    it('keeps a reply on one line and short', () => {
      const result = smtpFailure(
        replied(554, `554 ${'x'.repeat(2_000)}\r\nInjected: header`),
        SERVER,
      );
      expect(result.error).not.toMatch(/[\r\n]/);
      expect(result.error!.length).toBeLessThan(400);
    });
  });
});
