import type { Egress } from '@checkline/notification-node';
import {
  callService,
  defineNotificationStrategy,
  layerUrlIssues,
} from '@checkline/notification-node';
import { smsConfig, smsUserConfig } from './config.ts';
import { ADMIN_INSTRUCTIONS, USER_INSTRUCTIONS } from './instructions.ts';
import { smsText } from './message.ts';

const SERVICE = 'Twilio';

/** Text messages through Twilio's Messages API to the number each user gave. */
export function createSmsStrategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: 'sms',
    displayName: 'SMS',
    description: 'Text messages through Twilio.',
    icon: 'smartphone',
    config: smsConfig,
    userConfig: smsUserConfig,
    contactResolution: { type: 'user-config', field: 'phone' },
    validateConfig: (layer) => layerUrlIssues(options.egress, layer, { config: ['apiBaseUrl'] }),
    adminInstructions: ADMIN_INSTRUCTIONS,
    userInstructions: USER_INSTRUCTIONS,
    async send({ contact, notification, strategyConfig }) {
      const { accountSid, authToken, from, maxSegments } = strategyConfig;
      const base = strategyConfig.apiBaseUrl.replace(/\/+$/, '');
      const credentials = Buffer.from(`${accountSid}:${authToken}`).toString('base64');
      return callService(
        options.egress,
        SERVICE,
        `${base}/2010-04-01/Accounts/${accountSid}/Messages.json`,
        {
          method: 'POST',
          headers: {
            authorization: `Basic ${credentials}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({
            To: contact,
            From: from,
            Body: smsText(notification, maxSegments),
          }).toString(),
        },
      );
    },
  });
}
