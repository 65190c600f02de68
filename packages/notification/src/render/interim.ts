// Interim renderers until wt/render's are merged (same names and options); removed at that merge.
interface RenderOptions {
  maxLength?: number;
  action?: { label: string; url: string };
}
const ELLIPSIS = '…';
const cut = (text: string, max?: number) =>
  max === undefined || text.length <= max ? text : text.slice(0, Math.max(0, max - 1)) + ELLIPSIS;
const plain = (markdown: string) =>
  markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/[*_`#>]/g, '')
    .trim();
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function markdownToText(markdown: string, options: RenderOptions = {}): string {
  const tail = options.action ? `\n\n${options.action.label}: ${options.action.url}` : '';
  const room = options.maxLength === undefined ? undefined : options.maxLength - tail.length;
  return cut(plain(markdown), room) + tail;
}

export function markdownToHtml(markdown: string, options: RenderOptions = {}): string {
  const tail = options.action
    ? `\n\n<a href="${escapeHtml(options.action.url)}">${escapeHtml(options.action.label)}</a>`
    : '';
  const room = options.maxLength === undefined ? undefined : options.maxLength - tail.length;
  const html = escapeHtml(plain(markdown));
  return cut(html, room).replace(/&[a-z]*…$/, ELLIPSIS) + tail;
}

export function markdownToChat(markdown: string, options: RenderOptions = {}): string {
  const escaped = plain(markdown)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
  return cut(escaped, options.maxLength);
}
