import { destination, secret, versionedSchema } from '@checkline/notification-node';
import { z } from 'zod';

/** E.164: a plus, a country code not starting with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

export const smsConfig = versionedSchema({
  version: 1,
  schema: z.object({
    accountSid: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'Expected a Twilio account SID (AC followed by 32 hex digits)')
      .describe('The Twilio account SID (Console → Account info).'),
    authToken: secret().describe('The Twilio auth token (or an API key secret of the account).'),
    from: z
      .string()
      .regex(E164, 'Expected a phone number in E.164 form (+14155550100)')
      .describe('The Twilio number messages come from, in E.164 form.'),
    maxSegments: z
      .int()
      .min(1)
      .max(10)
      .default(3)
      .describe('Most SMS segments per message; longer texts are cut (the link is kept).'),
    apiBaseUrl: destination(z.url({ protocol: /^https?$/ }))
      .default('https://api.twilio.com')
      .describe("Twilio's API address; change it only for a test service."),
  }),
});

export const smsUserConfig = versionedSchema({
  version: 1,
  schema: z.object({
    phone: z
      .string()
      .regex(
        E164,
        'Expected your mobile number in E.164 form: +, country code, number (+447700900123)',
      )
      .describe('Your mobile number in E.164 form (+447700900123).'),
  }),
});
