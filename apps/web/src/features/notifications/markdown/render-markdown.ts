import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

/**
 * The Markdown of strategy instructions as HTML. markdown-it turns raw HTML in the source into
 * text and refuses javascript: and similar links; DOMPurify then removes anything that is still
 * not plain content (scripts, handlers, styles, forms, frames), so the result is safe to insert
 * even if the source came from a plugin we do not trust.
 */
const markdown = new MarkdownIt('default', { html: false, linkify: true, typographer: false });

const allowedTags = [
  'a',
  'p',
  'br',
  'hr',
  'strong',
  'em',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'img',
];

export function renderMarkdown(source: string): string {
  const html = markdown.render(source);
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: allowedTags,
    ALLOWED_ATTR: ['href', 'title', 'alt', 'src', 'start'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|\/|#)/i,
  });
}
