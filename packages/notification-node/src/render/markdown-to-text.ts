import { parseMarkdown } from './markdown-parser.ts';
import { renderPlainMarkup, type PlainMarkupStyle } from './plain-markup.ts';
import type { RenderOptions } from './render-options.ts';
import { isSafeLinkUrl } from './safe-url.ts';
import { fitWithAction } from './truncate-markup.ts';

const textStyle: PlainMarkupStyle = {
  escape: (text) => text,
  strong: (inner) => inner,
  emphasis: (inner) => inner,
  strikethrough: (inner) => inner,
  code: (content) => content,
  link: (label, href) => (sameAddress(label, href) ? label : `${label} (${href})`),
  heading: (text) => text,
  codeBlock: (content) => content,
  bullet: '-',
  rule: '---',
};

function sameAddress(label: string, href: string): boolean {
  return label === href || `mailto:${label}` === href;
}

/**
 * Markdown as plain text (SMS, the text part of an e-mail): links as `label (url)`, lists and
 * headings on their own lines, one blank line between blocks, the action as a `label: url` line.
 */
export function markdownToText(markdown: string, options: RenderOptions = {}): string {
  const body = renderPlainMarkup(parseMarkdown(markdown), textStyle);
  const action =
    options.action && isSafeLinkUrl(options.action.url)
      ? `${options.action.label}: ${options.action.url}`
      : undefined;
  return fitWithAction(body, action, options.maxLength, '\n\n');
}
