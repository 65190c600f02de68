// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown.ts';

describe('renderMarkdown', () => {
  // Not opening with the heading: happy-dom (not browsers) drops an element that opens the input.
  it('renders the Markdown that instructions use', () => {
    const html = renderMarkdown(
      'Before you start:\n\n## Setup\n\n1. Create a **bot**\n2. Copy `the token`\n\n[Docs](https://example.com/docs)',
    );
    expect(html).toContain('<h2>Setup</h2>');
    expect(html).toContain('<strong>bot</strong>');
    expect(html).toContain('<code>the token</code>');
    expect(html).toContain('<a href="https://example.com/docs">Docs</a>');
  });

  const attacks = [
    ['a script tag', '<script>alert(1)</script>'],
    ['an image with a handler', '<img src=x onerror="alert(1)">'],
    ['a javascript: link', '[click](javascript:alert(1))'],
    ['a data: link', '[click](data:text/html;base64,PHNjcmlwdD4=)'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>'],
    ['a style attribute', '<p style="background:url(x)">x</p>'],
    ['a vbscript: autolink', '<vbscript:msgbox(1)>'],
    ['a Markdown image with a javascript: source', '![x](javascript:alert(1))'],
    ['a link title breaking out', '[x](https://a.example "a\\" onmouseover=\\"alert(1))'],
  ] as const;

  it.each(attacks)('leaves nothing that runs of %s', (_name, source) => {
    // Inserted into a real document: no script, frame, handler or style, and every address is
    // http(s), mailto or a path.
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown(source);
    expect(host.querySelector('script, iframe, object, embed, [style]')).toBeNull();
    for (const element of host.querySelectorAll('*')) {
      for (const attribute of element.getAttributeNames()) {
        expect(attribute.startsWith('on'), `${attribute} on ${element.tagName}`).toBe(false);
      }
    }
    for (const element of host.querySelectorAll('[href], [src]')) {
      const address = element.getAttribute('href') ?? element.getAttribute('src') ?? '';
      expect(address).toMatch(/^(?:https?:|mailto:|\/|#)/i);
    }
  });
});
