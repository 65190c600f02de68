import { describe, expect, it } from 'vitest';
import { toTelegramHtml } from './telegram-html.ts';

describe('toTelegramHtml', () => {
  it('keeps formatting tags, makes headings bold and bullets list items', () => {
    expect(
      toTelegramHtml(
        '<h2 id="s">Status</h2><p>Since <strong>12:00</strong></p><ul><li>one</li><li>two</li></ul>',
      ),
    ).toBe('<b>Status</b>\n\nSince <strong>12:00</strong>\n\n• one\n• two');
  });

  it('keeps http(s) links with their href only and unwraps any other link', () => {
    expect(
      toTelegramHtml(
        '<a href="https://a.example/?x=1&amp;y=2" title="t">a</a> <a href="javascript:x">b</a>',
      ),
    ).toBe('<a href="https://a.example/?x=1&amp;y=2">a</a> b');
  });

  it('drops tags Telegram does not know, keeping escaped text as it is', () => {
    expect(toTelegramHtml('<table><tr><td>1 &lt; 2</td></tr></table><img src="x">')).toBe(
      '1 &lt; 2',
    );
  });
});
