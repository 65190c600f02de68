import { escapeHtml } from './escape-html.ts';
import { parseMarkdown, renderTokensAsHtml } from './markdown-parser.ts';
import type { RenderAction, RenderOptions } from './render-options.ts';
import { isSafeLinkUrl } from './safe-url.ts';
import { sanitizeBodyHtml } from './sanitize-body-html.ts';
import { ELLIPSIS } from './truncate-markup.ts';

const DEFAULT_BUTTON_COLOR = '#2563eb';

/** The action as a button that mail clients show without a stylesheet. */
function actionButtonHtml(action: RenderAction, color: string = DEFAULT_BUTTON_COLOR): string {
  return (
    '<p class="action"><a class="button" href="' +
    escapeHtml(action.url) +
    '" rel="noopener noreferrer" target="_blank" style="display:inline-block;padding:12px 20px;border-radius:6px;' +
    `background-color:${color};color:#ffffff;font-weight:600;text-decoration:none">` +
    escapeHtml(action.label) +
    '</a></p>'
  );
}

/**
 * Markdown as a sanitised HTML fragment (the e-mail body): no raw HTML, links only to http,
 * https and mailto with `rel="noopener noreferrer"`, the action as a styled button.
 * `maxLength` counts the characters of the HTML written, tags and the button included; a
 * limit too small for the button alone answers the button.
 */
export function markdownToHtml(markdown: string, options: RenderOptions = {}): string {
  const body = sanitizeBodyHtml(renderTokensAsHtml(parseMarkdown(markdown))).trim();
  const button =
    options.action && isSafeLinkUrl(options.action.url) ? actionButtonHtml(options.action) : '';
  if (options.maxLength === undefined || body.length + button.length <= options.maxLength) {
    return body + button;
  }
  const room = options.maxLength - button.length;
  return truncateHtml(body, room) + button;
}

/**
 * The fragment cut on a word boundary outside any tag, with an ellipsis, and closed again by
 * the sanitiser: cut further back until the closed result fits (each round removes at least
 * the excess, so a handful of rounds at most).
 */
function truncateHtml(html: string, limit: number): string {
  const boundaries = wordBoundariesOutsideTags(html);
  let target = limit - ELLIPSIS.length;
  for (let round = 0; round < 50 && target > 0; round++) {
    const cut = lastBoundaryAtOrBefore(boundaries, target);
    if (cut <= 0) break;
    const candidate = sanitizeBodyHtml(withEllipsis(html.slice(0, cut).trimEnd()));
    if (candidate.length <= limit) return candidate;
    target = cut - 1 - (candidate.length - limit);
  }
  return limit >= ELLIPSIS.length ? ELLIPSIS : '';
}

/** The ellipsis goes inside the last block, before the closing tags a block-boundary cut ends with. */
function withEllipsis(cut: string): string {
  const closing =
    /(?:<\/(?:p|li|ul|ol|h[1-6]|blockquote|pre|code|table|thead|tbody|tr|th|td)>\s*)+$/.exec(cut);
  return closing
    ? cut.slice(0, closing.index) + ELLIPSIS + cut.slice(closing.index)
    : cut + ELLIPSIS;
}

function wordBoundariesOutsideTags(html: string): number[] {
  const boundaries: number[] = [];
  let inTag = false;
  for (let index = 0; index < html.length; index++) {
    const character = html[index];
    if (character === '<') inTag = true;
    else if (character === '>') inTag = false;
    else if (!inTag && (character === ' ' || character === '\n')) boundaries.push(index);
  }
  return boundaries;
}

function lastBoundaryAtOrBefore(boundaries: number[], position: number): number {
  let low = 0;
  let high = boundaries.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (boundaries[middle]! <= position) {
      found = boundaries[middle]!;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
