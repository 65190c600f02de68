import { hexColorOr } from './css-color.ts';
import { COLOR_SENTINELS, emailTemplate } from './email-template.ts';
import { escapeHtml } from './escape-html.ts';
import type { RenderAction } from './render-options.ts';
import { isSafeLinkUrl } from './safe-url.ts';
import { sanitizeBodyHtml } from './sanitize-body-html.ts';

export type EmailImportance = 'info' | 'warning' | 'critical';

export interface EmailLayoutInput {
  title: string;
  /** An HTML fragment, as `markdownToHtml` writes it; sanitised again here. */
  bodyHtml: string;
  /** Colours the header. Default `info`. */
  importance?: EmailImportance;
  action?: RenderAction;
  /** http(s) address of a logo, shown at most 200 px wide. */
  logoUrl?: string;
  /** The header of `info` messages, and the action button without an accent (`#rgb` or `#rrggbb`). */
  primaryColor?: string;
  /** The action button, links and the rule under the header (`#rgb` or `#rrggbb`). */
  accentColor?: string;
  footerText?: string;
  /** The line inboxes show after the subject; hidden in the message itself. */
  preheader?: string;
}

const DEFAULT_PRIMARY_COLOR = '#2563eb';
const DEFAULT_ACCENT_COLOR = '#1d4ed8';
const HEADER_COLORS: Record<Exclude<EmailImportance, 'info'>, string> = {
  warning: '#b45309',
  critical: '#b91c1c',
};
const IMPORTANCE_LABELS: Record<EmailImportance, string | undefined> = {
  info: undefined,
  warning: 'Warning',
  critical: 'Critical',
};

/**
 * A complete responsive HTML e-mail: optional logo, header coloured by importance, body,
 * action button, footer, hidden preheader. Single column up to 600 px wide, CSS inlined.
 * Every value is escaped; colours that are not `#rgb`/`#rrggbb` fall back to the defaults.
 */
export function renderEmailLayout(input: EmailLayoutInput): string {
  const template = emailTemplate();
  const importance: EmailImportance = input.importance ?? 'info';
  const primary = hexColorOr(input.primaryColor, DEFAULT_PRIMARY_COLOR);
  const colors: Record<string, string> = {
    [COLOR_SENTINELS.header]: importance === 'info' ? primary : HEADER_COLORS[importance],
    // The seed's accent is for buttons; without one the button keeps the brand's primary colour.
    [COLOR_SENTINELS.button]: hexColorOr(input.accentColor, primary),
    [COLOR_SENTINELS.accent]: hexColorOr(input.accentColor, DEFAULT_ACCENT_COLOR),
  };
  const logoUrl = input.logoUrl && isHttpUrl(input.logoUrl) ? input.logoUrl : undefined;
  const action = input.action && isSafeLinkUrl(input.action.url) ? input.action : undefined;
  const footer = input.footerText?.trim();
  const label = IMPORTANCE_LABELS[importance];

  const values: Record<string, string> = {
    TITLE: escapeHtml(input.title),
    PREHEADER: escapeHtml(input.preheader ?? ''),
    LOGO_URL: escapeHtml(logoUrl ?? ''),
    LOGO_ALT: escapeHtml(footer ? footer.split('\n')[0]! : 'Logo'),
    IMPORTANCE: escapeHtml(label ?? ''),
    BODY: sanitizeBodyHtml(input.bodyHtml),
    ACTION_URL: escapeHtml(action?.url ?? ''),
    ACTION_LABEL: escapeHtml(action?.label ?? ''),
    FOOTER: footer ? escapeHtml(footer).replace(/\r?\n/g, '<br>') : '',
  };

  const document = template.document
    .replace('%%LOGO_ROW%%', logoUrl ? template.logoRow : '')
    .replace('%%IMPORTANCE_LINE%%', label ? template.importance : '')
    .replace('%%ACTION_ROW%%', action ? template.actionRow : '')
    .replace('%%FOOTER_ROW%%', footer ? template.footerRow : '');

  const sentinels = Object.values(COLOR_SENTINELS).join('|');
  // One pass: text put in is never read again, so a value cannot smuggle in a placeholder.
  return document.replace(
    new RegExp(`%%([A-Z_]+)%%|${sentinels}`, 'gi'),
    (match: string, key: string | undefined) =>
      key === undefined ? colors[match.toLowerCase()]! : (values[key] ?? ''),
  );
}

function isHttpUrl(url: string): boolean {
  return isSafeLinkUrl(url) && /^https?:/i.test(url.trim());
}
