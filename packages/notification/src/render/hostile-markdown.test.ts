import { describe, expect, it } from 'vitest';
import { markdownToChat, markdownToHtml, markdownToText } from '@checkline/notification-node';
import { adversarialMarkdown } from '@checkline/notification-node/testing';
import { MarkdownSchema } from '../message-schemas.ts';

/*
 * Bodies that make naive Markdown parsers backtrack, at the longest size the contract takes.
 * How long each takes beside an ordinary body is a row of `pnpm bench` (never asserted here);
 * this checks what every renderer answers to them.
 */
const SIZE = MarkdownSchema.maxLength!;

const limited = [
  { name: 'HTML cut for a push', render: markdownToHtml, maxLength: 4_000 },
  { name: 'text cut for an SMS', render: markdownToText, maxLength: 1_600 },
  { name: 'chat cut for a message', render: markdownToChat, maxLength: 3_000 },
];

describe('hostile Markdown bodies', () => {
  it.each(Object.entries(adversarialMarkdown(SIZE)))(
    '%s: every renderer answers within its limit, with no markup from the body',
    (_name, body) => {
      expect(body.length).toBe(SIZE);
      for (const { render, maxLength } of limited) {
        expect(render(body, { maxLength }).length).toBeLessThanOrEqual(maxLength);
      }
      const html = markdownToHtml(body);
      expect(html).not.toMatch(
        /<(?!\/?(?:p|em|strong|code|pre|blockquote|ul|ol|li|a|br|hr|table|thead|tbody|tr|th|td|del|h[1-6])\b)[a-z]/i,
      );
      expect(html).not.toMatch(/<a\b(?![^>]*\bhref="https?:)/);
    },
  );
});
