import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './escape-markdown.ts';

describe('escapeMarkdown works', () => {
  it('leaves plain words alone', () => {
    expect(escapeMarkdown('Payments API 2')).toBe('Payments API 2');
  });

  it('escapes emphasis, links, images, code and HTML', () => {
    expect(escapeMarkdown('*bold* _it_ [x](http://e.vil) ![i](y) `c` <b>&amp;')).toBe(
      '\\*bold\\* \\_it\\_ \\[x\\]\\(http\\:\\/\\/e\\.vil\\) \\!\\[i\\]\\(y\\) \\`c\\` \\<b\\>\\&amp\\;',
    );
  });

  it('turns line breaks into spaces so no block can start', () => {
    expect(escapeMarkdown('name\n# heading\r\n> quote')).toBe('name \\# heading \\> quote');
  });

  it('escapes the backslash itself', () => {
    expect(escapeMarkdown('a\\*b')).toBe('a\\\\\\*b');
  });
});
