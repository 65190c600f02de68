import type { PluginRoute } from '@checkline/core';
import type { NotificationState } from '../state.ts';
import { verifyAckToken } from './ack-link.ts';
import { fetchUserProfiles } from '../delivery/user-profiles.ts';
import type { AlertHolder } from './service.ts';
import { acknowledgeAlert, findHeldAlert } from './service.ts';

const ROUTE = '/alerts/acknowledge';

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => htmlEntities[char]!);

const noStore = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

const plain = (status: number, text: string) =>
  new Response(`${text}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...noStore },
  });

/** A page with one button: a GET (a person, or a mail scanner opening links) changes nothing. */
function confirmationPage(title: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Acknowledge alert</title></head>
<body><main><h1>Acknowledge this alert?</h1><p>${escapeHtml(title)}</p>
<p>Acknowledging stops its reminders and escalation.</p>
<form method="post"><button type="submit">Acknowledge</button></form></main></body></html>
`;
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; form-action 'self'",
      ...noStore,
    },
  });
}

const tokenParameter = {
  name: 'token',
  in: 'path',
  required: true,
  description: 'The signed token of the link (names one alert and one person; expires).',
  schema: { type: 'string' },
};

const acknowledgeOperation = {
  operationId: 'notification.acknowledgeAlertByLink',
  tags: ['notification'],
  summary: 'Acknowledges the alert a reminder or escalation link names; stops its reminders.',
  description:
    'The link comes from a reminder or escalation message (its "Acknowledge" action). The token is signed and expires (7 days by default); no other authentication is asked. A link works once: an alert already acknowledged or resolved answers 410 and nothing changes.',
  security: [],
  parameters: [tokenParameter],
  responses: {
    '200': {
      description: 'Acknowledged.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    '400': {
      description: 'Not one of our links, altered or expired; nothing changed.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    '410': {
      description: 'The alert was acknowledged or resolved before; nothing changed.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
  },
};

const pageOperation = {
  operationId: 'notification.acknowledgeAlertPage',
  tags: ['notification'],
  summary: 'The acknowledgement link opened in a browser: a page whose button POSTs it.',
  description: 'Changes nothing (mail scanners open links). An invalid link answers 400.',
  security: [],
  parameters: [tokenParameter],
  responses: {
    '200': { description: 'The confirmation page.', content: { 'text/html': {} } },
    '400': { description: 'Not one of our links, altered or expired.' },
  },
};

/**
 * The alert a valid link names, and its person as they are now (a team alert is held through
 * the teams they belong to today: a member removed since holds it no more). Undefined for an
 * invalid link or a person who no longer exists.
 */
async function holderOfLink(
  state: NotificationState,
  token: string | undefined,
): Promise<{ alertId: string; holder: AlertHolder } | undefined> {
  const claim = verifyAckToken(state.keyring, token ?? '');
  if (!claim) return undefined;
  const profile = (await fetchUserProfiles(state.serviceContext(), [claim.userId])).get(
    claim.userId,
  );
  if (!profile) return undefined;
  return { alertId: claim.alertId, holder: { userId: profile.id, teamIds: profile.teamIds } };
}

/** `GET` shows a confirmation page, `POST {ACK_PATH}/{token}` acknowledges. */
export function acknowledgementRoutes(state: NotificationState): PluginRoute[] {
  const path = `${ROUTE}/:token`;
  const invalid = () => plain(400, 'This link is not valid or has expired. Nothing changed.');
  return [
    {
      method: 'POST',
      path,
      secretParams: ['token'],
      async handle(_request, params, meta) {
        const holder = await holderOfLink(state, params.token);
        if (!holder) return invalid();
        const answer = await acknowledgeAlert(state.db, holder.holder, holder.alertId);
        if (answer.outcome === 'missing') return invalid();
        if (answer.outcome === 'closed') {
          return plain(410, 'This alert was already acknowledged or resolved. Nothing changed.');
        }
        meta.logger.info({ alertId: holder.alertId }, 'alert acknowledged by link');
        return plain(200, `Acknowledged: ${answer.alert.title}. No more reminders.`);
      },
      openapi: () => ({ [`${ROUTE}/{token}`]: { post: acknowledgeOperation } }),
    },
    {
      method: 'GET',
      path,
      secretParams: ['token'],
      async handle(_request, params) {
        const holder = await holderOfLink(state, params.token);
        if (!holder) return invalid();
        const alert = await findHeldAlert(state.db, holder.holder, holder.alertId);
        if (!alert) return invalid();
        if (alert.state !== 'open') {
          return plain(410, 'This alert was already acknowledged or resolved. Nothing changed.');
        }
        return confirmationPage(alert.title);
      },
      openapi: () => ({ [`${ROUTE}/{token}`]: { get: pageOperation } }),
    },
  ];
}
