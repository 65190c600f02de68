import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { isSafeLinkUrl } from './safe-url.ts';

/**
 * The one Markdown parser of the renderers: raw HTML is text, bare URLs stay text (no linkify),
 * images are read as links (a mail or chat message loads no remote picture), and a link whose
 * address is not http, https or mailto is no link at all.
 */
const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
markdown.disable('image');
markdown.validateLink = isSafeLinkUrl;

export function parseMarkdown(source: string): Token[] {
  return markdown.parse(source, {});
}

/** markdown-it's own HTML for parsed tokens; the caller sanitises it. */
export function renderTokensAsHtml(tokens: Token[]): string {
  return markdown.renderer.render(tokens, markdown.options, {});
}

export type { Token };
