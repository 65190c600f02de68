import { randomUUID } from 'node:crypto';
import { Keyring } from '@checkline/core';
import { describe, expect, it } from 'vitest';
import type { SubscriptionMessage } from '../subscriptions/messages.ts';
import { renderAlert } from '../subscriptions/render-alert.ts';
import { verifyAckToken } from './ack-link.ts';
import { firstMessages } from './first-alert.ts';
import { resolveReminderSettings } from './settings.ts';

const state = {
  keyring: Keyring.ephemeral(),
  baseUrl: 'https://checkline.example',
  reminderSettings: resolveReminderSettings(),
};

const message: SubscriptionMessage = renderAlert({
  kind: 'healthcheck.status_changed',
  system: { id: randomUUID(), name: 'Billing' },
  previous: 'healthy',
  current: 'unhealthy',
  changedAt: '2030-01-01T10:07:30.000Z',
  previousSince: '2030-01-01T08:00:00.000Z',
  previousDurationMs: 7_650_000,
  failingChecks: [],
});

const [ana, ben, cleo, dan] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];

/** The alert and person an acknowledgement URL names. */
const claimOf = (url: string) => verifyAckToken(state.keyring, url.slice(url.lastIndexOf('/') + 1));

describe('first alert messages', () => {
  describe('works', () => {
    const personal = { id: randomUUID(), holderIds: [ana] };
    const team = { id: randomUUID(), holderIds: [ben, cleo, ana] };
    const cases = [
      { name: 'no alert opened: one shared plain message', opened: [], linked: {} },
      {
        name: 'a person’s alert: their own link',
        opened: [personal],
        linked: { [ana]: personal.id },
      },
      {
        name: 'a team’s alert: a link per member, the first alert a person holds wins',
        opened: [personal, team],
        linked: { [ana]: personal.id, [ben]: team.id, [cleo]: team.id },
      },
    ];
    for (const { name, opened, linked } of cases) {
      it(name, () => {
        const groups = firstMessages(state, [ana, ben, cleo, dan], message, opened);
        const plain = groups.filter((group) => group.message === message);
        const others = [ana, ben, cleo, dan].filter((userId) => !(userId in linked));
        expect(plain.flatMap((group) => group.userIds)).toEqual(others);
        const withLink = groups.filter((group) => group.message !== message);
        expect(withLink.map((group) => group.userIds)).toEqual(
          Object.keys(linked).map((userId) => [userId]),
        );
        for (const group of withLink) {
          const userId = group.userIds[0]!;
          expect(group.message.action.label).toBe('Acknowledge');
          expect(group.message.body).toContain('Reminders are on for this alert');
          expect(group.message.body.startsWith(message.body)).toBe(true);
          expect(claimOf(group.message.action.url)).toEqual({ alertId: linked[userId], userId });
        }
      });
    }
  });
});
