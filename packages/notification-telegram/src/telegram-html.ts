/** Telegram's limit on a message's text (after its HTML is parsed). */
export const TELEGRAM_TEXT_LIMIT = 4_096;

const KEPT = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'code',
  'pre',
  'blockquote',
]);

const BLOCK_BREAKS: Record<string, string> = {
  p: '\n\n',
  div: '\n',
  br: '\n',
  li: '\n',
  ul: '\n',
  ol: '\n',
  tr: '\n',
  h1: '\n\n',
  h2: '\n\n',
  h3: '\n\n',
  h4: '\n\n',
  h5: '\n\n',
  h6: '\n\n',
  hr: '\n',
};

const HEADING = /^h[1-6]$/;

/**
 * Sanitised HTML reduced to what Telegram's HTML parse mode takes: its formatting tags kept
 * (without attributes), links kept with only an http(s) `href`, headings made bold, list items
 * bulleted, every other tag dropped (block ends become line breaks). Text and entities are left
 * as the sanitiser escaped them.
 */
export function toTelegramHtml(html: string): string {
  const reduced = html.replace(
    /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g,
    (_tag, slash: string, rawName: string, attributes: string) => {
      const name = rawName.toLowerCase();
      const closing = slash === '/';
      if (KEPT.has(name)) return `<${slash}${name}>`;
      if (HEADING.test(name)) return closing ? `</b>${BLOCK_BREAKS[name]}` : '<b>';
      if (name === 'a') {
        if (closing) return '</a>';
        const href = /\bhref\s*=\s*"(https?:\/\/[^"]*)"/i.exec(attributes)?.[1];
        return href ? `<a href="${href}">` : '<a>';
      }
      if (name === 'li') return closing ? '\n' : '• ';
      return closing || name === 'br' || name === 'hr' ? (BLOCK_BREAKS[name] ?? '') : '';
    },
  );
  // An <a> without a usable href is no link: drop it, keep its text.
  return reduced
    .replace(/<a>([\s\S]*?)<\/a>/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
