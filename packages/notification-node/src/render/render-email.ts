import type { StrategyNotification } from '../strategies/strategy.ts';
import { renderEmailLayout, type EmailImportance, type EmailLayoutInput } from './email-layout.ts';
import { markdownToHtml } from './markdown-to-html.ts';
import { markdownToText } from './markdown-to-text.ts';

export type EmailBranding = Partial<
  Omit<EmailLayoutInput, 'title' | 'bodyHtml' | 'importance' | 'action'>
>;

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const PREHEADER_LENGTH = 120;

/**
 * A notification as an e-mail: subject = title, the HTML part in the layout with the action
 * as a button, the text part with the action as a `label: url` line. `maxLength` limits the
 * body of each part: the text part's characters (title included), the HTML body fragment's.
 */
export function renderEmail(
  notification: StrategyNotification,
  layout: EmailBranding = {},
  options: { maxLength?: number } = {},
): RenderedEmail {
  const body = notification.body ?? '';
  const subject = subjectOf(notification.title);
  const textBody = markdownToText(body, {
    maxLength: options.maxLength === undefined ? undefined : options.maxLength - subject.length - 2,
    action: notification.action,
  });
  const bodyHtml = markdownToHtml(body, { maxLength: options.maxLength });
  const html = renderEmailLayout({
    preheader: markdownToText(body, { maxLength: PREHEADER_LENGTH }).replace(/\s+/g, ' '),
    ...layout,
    title: notification.title,
    bodyHtml,
    importance: importanceOf(notification.importance),
    action: notification.action,
  });
  return { subject, html, text: textBody === '' ? subject : `${subject}\n\n${textBody}` };
}

/** A subject is one line: a header with a line break would end the header early. */
function subjectOf(title: string): string {
  return title.replace(/[\r\n]+/g, ' ').trim();
}

function importanceOf(value: string | undefined): EmailImportance {
  return value === 'warning' || value === 'critical' ? value : 'info';
}
