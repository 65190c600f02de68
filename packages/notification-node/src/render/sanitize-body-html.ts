import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = [
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'b',
  'em',
  'i',
  's',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];

const options: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'rel', 'target', 'class'],
    p: ['class'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
  },
  // The classes of markdownToHtml's action button, which the e-mail layout's stylesheet styles.
  allowedClasses: { a: ['button'], p: ['action'] },
  allowedStyles: {
    th: { 'text-align': [/^(left|right|center)$/] },
    td: { 'text-align': [/^(left|right|center)$/] },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener noreferrer', target: '_blank' },
    }),
  },
};

/**
 * An HTML fragment reduced to the allow-list of message bodies: text structure, links to http,
 * https and mailto only (always `rel="noopener noreferrer"`), no scripts, styles, images or
 * event handlers (disallowed elements are dropped, their text kept; script and style whole).
 * Unclosed elements are closed, so the result is always well-formed.
 */
export function sanitizeBodyHtml(html: string): string {
  return sanitizeHtml(html, options);
}
