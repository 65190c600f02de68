import { HTMLElement, parse as parseHtml, valid } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './escape-markdown.ts';
import { markdownToHtml } from './markdown-to-html.ts';

/** `<pre>` parsed as elements too (node-html-parser keeps its content as raw text by default). */
function parse(html: string): HTMLElement {
  return parseHtml(html, { blockTextElements: { script: true, style: true } });
}

const action = { label: 'Open the incident', url: 'https://status.example/incidents/7' };

function elements(html: string, selector = '*'): HTMLElement[] {
  return parse(html).querySelectorAll(selector);
}

/** Every element name and attribute the output holds, for allow-list assertions. */
function tagsAndAttributes(html: string): { tags: Set<string>; attributes: Set<string> } {
  const tags = new Set<string>();
  const attributes = new Set<string>();
  for (const element of elements(html)) {
    tags.add(element.tagName.toLowerCase());
    for (const name of Object.keys(element.attributes)) attributes.add(name.toLowerCase());
  }
  return { tags, attributes };
}

describe('markdownToHtml writes Markdown as HTML', () => {
  it('renders headings, emphasis, lists, quotes, code and tables as elements', () => {
    const html = markdownToHtml(
      '# Title\n\nSome *soft* and **strong** ~~old~~ `code`.\n\n- one\n- two\n\n3. three\n\n> quoted\n\n```\nblock\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |',
    );
    const root = parse(html);
    expect(root.querySelector('h1')?.text).toBe('Title');
    expect(root.querySelector('em')?.text).toBe('soft');
    expect(root.querySelector('strong')?.text).toBe('strong');
    expect(root.querySelector('s')?.text).toBe('old');
    expect(root.querySelector('p code')?.text).toBe('code');
    expect(root.querySelectorAll('ul li').map((li) => li.text)).toEqual(['one', 'two']);
    expect(root.querySelector('ol')?.getAttribute('start')).toBe('3');
    expect(root.querySelector('blockquote p')?.text).toBe('quoted');
    expect(root.querySelector('pre code')?.text).toBe('block\n');
    expect(root.querySelectorAll('td').map((td) => td.text)).toEqual(['1', '2']);
    expect(root.querySelectorAll('td')[1]?.getAttribute('style')).toBe('text-align:right');
  });

  it('writes http, https and mailto links with rel="noopener noreferrer"', () => {
    const html = markdownToHtml(
      '[site](https://example.com/a?b=1&c=2) [plain](http://example.com) [mail](mailto:ops@example.com)',
    );
    const links = elements(html, 'a');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a?b=1&c=2',
      'http://example.com',
      'mailto:ops@example.com',
    ]);
    for (const link of links) {
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(link.getAttribute('target')).toBe('_blank');
    }
  });

  it('appends the action as a styled button link', () => {
    const html = markdownToHtml('Body text.', { action });
    const button = parse(html).querySelector('p.action a.button');
    expect(button?.getAttribute('href')).toBe(action.url);
    expect(button?.text).toBe(action.label);
    expect(button?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(button?.getAttribute('style')).toMatch(/background-color:#2563eb/);
    expect(button?.getAttribute('style')).toMatch(/display:inline-block/);
  });

  it('leaves an empty body empty and still shows the action', () => {
    expect(markdownToHtml('')).toBe('');
    expect(elements(markdownToHtml('', { action }), 'a')).toHaveLength(1);
  });
});

describe('markdownToHtml refuses hostile input', () => {
  it('passes no raw HTML: script, iframe, img and event handlers arrive as text', () => {
    const html = markdownToHtml(
      '<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> <iframe src="https://evil.example"></iframe> <b onclick="x()">b</b>\n\n<div style="position:fixed">block</div>',
    );
    const { tags, attributes } = tagsAndAttributes(html);
    expect([...tags].sort()).toEqual(['p']);
    expect(attributes.size).toBe(0);
    expect(parse(html).text).toContain('<script>alert(1)</script>');
    expect(parse(html).text).toContain('<img src=x onerror=alert(1)>');
  });

  it('makes no link of javascript:, data:, vbscript:, file: or relative addresses', () => {
    const html = markdownToHtml(
      [
        '[a](javascript:alert(1))',
        '[b](JaVaScRiPt:alert(1))',
        '[c](data:text/html;base64,PHNjcmlwdD4=)',
        '[d](vbscript:msgbox)',
        '[e](file:///etc/passwd)',
        '[f](/relative)',
        '[g](//evil.example)',
        '<javascript:alert(1)>',
        '![img](data:image/png;base64,AAAA)',
        '[h](java&#x09;script:alert(1))',
      ].join('\n\n'),
    );
    expect(elements(html, 'a')).toHaveLength(0);
    expect(elements(html, 'img')).toHaveLength(0);
  });

  it('turns an image into a plain link, never a remote picture', () => {
    const html = markdownToHtml('![chart](https://example.com/chart.png)');
    expect(elements(html, 'img')).toHaveLength(0);
    expect(elements(html, 'a')[0]?.getAttribute('href')).toBe('https://example.com/chart.png');
  });

  it('shows a monitored name passed through escapeMarkdown as written, not as a link', () => {
    const name = '[click](https://evil.example) <b>x</b> *y*';
    const html = markdownToHtml(`System **${escapeMarkdown(name)}** is down.`);
    expect(elements(html, 'a')).toHaveLength(0);
    expect(elements(html, 'b')).toHaveLength(0);
    expect(parse(html).querySelector('strong')?.text).toBe(name);
  });

  it('drops an action whose address is not http, https or mailto', () => {
    const html = markdownToHtml('Body', { action: { label: 'x', url: 'javascript:alert(1)' } });
    expect(elements(html, 'a')).toHaveLength(0);
  });

  it('escapes the action label and address', () => {
    const html = markdownToHtml('', {
      action: { label: '<img src=x onerror=alert(1)>', url: 'https://e.example/?a="><script>' },
    });
    const { tags } = tagsAndAttributes(html);
    expect([...tags].sort()).toEqual(['a', 'p']);
    expect(elements(html, 'a')[0]?.text).toBe('<img src=x onerror=alert(1)>');
    expect(elements(html, 'a')[0]?.getAttribute('href')).toBe('https://e.example/?a="><script>');
  });
});

describe('markdownToHtml keeps to maxLength', () => {
  const longBody = Array.from(
    { length: 400 },
    (_, index) =>
      `Paragraph ${index} has **bold** and [a link](https://example.com/${index}) text.`,
  )
    .join('\n\n')
    .slice(0, 10_000);

  it.each([500, 1_000, 4_000, 9_000])(
    'cuts a 10 000-character body to %i characters, well-formed, button kept',
    (limit) => {
      expect(longBody).toHaveLength(10_000);
      const html = markdownToHtml(longBody, { maxLength: limit, action });
      expect(html.length).toBeLessThanOrEqual(limit);
      expect(valid(html)).toBe(true);
      const root = parse(html);
      const blocks = root.childNodes.filter((node) => node instanceof HTMLElement);
      expect(blocks.at(-2)?.text.endsWith('…')).toBe(true);
      const button = root.querySelector('a.button');
      expect(button?.getAttribute('href')).toBe(action.url);
      expect(html.endsWith('</a></p>')).toBe(true);
      for (const link of root.querySelectorAll('a')) {
        expect(link.getAttribute('href')).toMatch(
          /^https:\/\/example\.com\/\d+$|^https:\/\/status/,
        );
      }
    },
  );

  it('cuts between words, never inside one', () => {
    const html = markdownToHtml('alpha beta gamma delta epsilon zeta eta theta', { maxLength: 30 });
    expect(html).toBe('<p>alpha beta gamma delta…</p>');
  });

  it('puts the ellipsis inside the last block when the cut falls between blocks', () => {
    const html = markdownToHtml('first paragraph\n\nsecond paragraph here', { maxLength: 32 });
    expect(html).toBe('<p>first paragraph…</p>');
  });

  it('puts the ellipsis after a link, not into its label', () => {
    const expected =
      '<p>see <a href="https://d.example" rel="noopener noreferrer" target="_blank">docs</a>…</p>';
    const html = markdownToHtml('see [docs](https://d.example) and more words here', {
      maxLength: expected.length + 3,
    });
    expect(html).toBe(expected);
  });

  it('answers the button alone when the limit cannot hold more', () => {
    const html = markdownToHtml('word '.repeat(100), { maxLength: 50, action });
    expect(parse(html).querySelectorAll('p')).toHaveLength(1);
    expect(parse(html).querySelector('a.button')?.getAttribute('href')).toBe(action.url);
  });

  it('leaves a body that fits unchanged', () => {
    expect(markdownToHtml('short', { maxLength: 1_000 })).toBe('<p>short</p>');
  });
});
