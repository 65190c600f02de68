import { parseMarkdown } from './markdown-parser.ts';
import { renderPlainMarkup, type PlainMarkupStyle } from './plain-markup.ts';
import type { RenderAction, RenderOptions } from './render-options.ts';
import { isSafeLinkUrl } from './safe-url.ts';
import { fitWithAction } from './truncate-markup.ts';

/**
 * Slack's three control characters as entities: with no `<` left in content, no `<!channel>`,
 * `<!here>`, `<@U…>` or `<url|label>` can come out of it, code spans included.
 */
export function escapeChat(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A link target inside `<…|…>`: `|` would end the address early. */
function chatHref(href: string): string {
  return escapeChat(href).replace(/\|/g, '%7C');
}

/** A Slack link `<url|label>`; the label is already written in chat markup. */
function chatLink(label: string, href: string): string {
  return label === '' || label === escapeChat(href)
    ? `<${chatHref(href)}>`
    : `<${chatHref(href)}|${label}>`;
}

const chatStyle: PlainMarkupStyle = {
  escape: escapeChat,
  strong: (inner) => `*${inner}*`,
  emphasis: (inner) => `_${inner}_`,
  strikethrough: (inner) => `~${inner}~`,
  code: (content) => `\`${escapeChat(content)}\``,
  link: chatLink,
  heading: (text) => `*${text}*`,
  codeBlock: (content) => `\`\`\`\n${escapeChat(content)}\n\`\`\``,
  bullet: '•',
  rule: '———',
};

function chatActionLine(action: RenderAction | undefined): string | undefined {
  return action && isSafeLinkUrl(action.url)
    ? chatLink(escapeChat(action.label), action.url)
    : undefined;
}

/** Cuts off a link or entity the truncation split, and closes a split code block. */
function chatSafeTail(cut: string): string {
  let safe = cut;
  if (safe.lastIndexOf('<') > safe.lastIndexOf('>')) safe = safe.slice(0, safe.lastIndexOf('<'));
  if (safe.lastIndexOf('&') > safe.lastIndexOf(';')) safe = safe.slice(0, safe.lastIndexOf('&'));
  const fences = safe.match(/```/g)?.length ?? 0;
  if (fences % 2 === 1) safe = safe.slice(0, safe.lastIndexOf('```'));
  return safe;
}

/**
 * Markdown as Slack `mrkdwn`: bold, italics, strikethrough, code, links `<url|label>`, headings
 * as bold lines, bullets; the action as a `<url|label>` line.
 */
export function markdownToChat(markdown: string, options: RenderOptions = {}): string {
  const body = renderPlainMarkup(parseMarkdown(markdown), chatStyle);
  return fitWithAction(
    body,
    chatActionLine(options.action),
    options.maxLength,
    '\n\n',
    chatSafeTail,
  );
}
