import type { StrategyNotification } from '@checkline/notification-node';
import { markdownToText } from '@checkline/notification-node';
import { fitSegments } from './segments.ts';

/** Twilio refuses bodies over 1 600 characters; the segment limit keeps far below it anyway. */
const BODY_CAP = 1_600;

/** Plain text: the title, the body, then the action link, cut to `maxSegments` segments. */
export function smsText(notification: StrategyNotification, maxSegments: number): string {
  const body = notification.body ? markdownToText(notification.body, { maxLength: BODY_CAP }) : '';
  const head = body ? `${notification.title}\n${body}` : notification.title;
  const action = notification.action;
  const tail = action ? `\n${action.label}: ${action.url}` : '';
  return fitSegments(head, tail, maxSegments);
}
