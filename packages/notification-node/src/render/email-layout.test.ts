import type { HTMLElement } from 'node-html-parser';
import { parse as parseHtml } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { renderEmailLayout, type EmailLayoutInput } from './email-layout.ts';
import { emailTemplate } from './email-template.ts';

function parse(html: string): HTMLElement {
  return parseHtml(html, { blockTextElements: { script: true, style: true } });
}

function styleOf(element: HTMLElement | null): string {
  return (element?.getAttribute('style') ?? '').replace(/\s+/g, ' ');
}

const base: EmailLayoutInput = {
  title: 'Payments API is down',
  bodyHtml: '<p>The <strong>Payments API</strong> failed 3 checks.</p>',
};
const action = { label: 'Open the incident', url: 'https://status.example/incidents/7' };

describe('renderEmailLayout builds a complete e-mail', () => {
  it('is a document with title, header, body, action button, footer and preheader', () => {
    const html = renderEmailLayout({
      ...base,
      action,
      logoUrl: 'https://cdn.example/logo.png',
      footerText: 'Acme Corp\nYou receive this because you watch Payments.',
      preheader: 'Payments API failed 3 checks',
    });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    const root = parse(html);
    expect(root.querySelector('title')?.text).toBe(base.title);
    expect(root.querySelector('meta[name="viewport"]')?.getAttribute('content')).toBe(
      'width=device-width, initial-scale=1',
    );
    expect(root.querySelector('h1')?.text).toBe(base.title);
    expect(root.querySelector('td.content strong')?.text).toBe('Payments API');
    const button = root.querySelector('a.button');
    expect(button?.getAttribute('href')).toBe(action.url);
    expect(button?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(button?.text).toBe(action.label);
    const logo = root.querySelector('img.logo');
    expect(logo?.getAttribute('src')).toBe('https://cdn.example/logo.png');
    expect(styleOf(logo)).toContain('max-width: 200px');
    expect(root.querySelector('td.footer')?.innerHTML).toBe(
      'Acme Corp<br>You receive this because you watch Payments.',
    );
    const preheader = root.querySelector('div.preheader');
    expect(preheader?.text).toBe('Payments API failed 3 checks');
    expect(styleOf(preheader)).toContain('display: none');
  });

  it('inlines the stylesheet into the elements for mail clients and keeps the media query', () => {
    const root = parse(renderEmailLayout({ ...base, action }));
    expect(styleOf(root.querySelector('table.container'))).toContain('max-width: 600px');
    expect(styleOf(root.querySelector('td.content'))).toContain('padding: 24px');
    expect(styleOf(root.querySelector('h1.title'))).toContain('font-size: 22px');
    expect(styleOf(root.querySelector('a.button'))).toContain('display: inline-block');
    expect(root.querySelector('style')?.text).toContain(
      '@media only screen and (max-width: 480px)',
    );
  });

  it('leaves out logo, importance line, action and footer rows that were not given', () => {
    const root = parse(renderEmailLayout(base));
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('a')).toBeNull();
    expect(root.querySelector('td.footer')).toBeNull();
    expect(root.querySelector('p.importance')).toBeNull();
    expect(root.querySelector('div.preheader')?.text).toBe('');
  });

  it.each([
    ['info', undefined, '#2563eb'],
    ['warning', 'Warning', '#b45309'],
    ['critical', 'Critical', '#b91c1c'],
  ] as const)('colours the header of %s messages', (importance, label, color) => {
    const root = parse(renderEmailLayout({ ...base, importance }));
    expect(styleOf(root.querySelector('td.header'))).toContain(`background-color: ${color}`);
    expect(root.querySelector('p.importance')?.text).toBe(label);
  });

  it('uses accentColor for the button, links and rule, and primaryColor for the info header', () => {
    const root = parse(
      renderEmailLayout({
        ...base,
        bodyHtml: '<p><a href="https://a.example">a</a></p>',
        action,
        primaryColor: '#0f766e',
        accentColor: '#f59e0b',
      }),
    );
    expect(styleOf(root.querySelector('a.button'))).toContain('background-color: #f59e0b');
    expect(styleOf(root.querySelector('td.header'))).toContain('background-color: #0f766e');
    expect(styleOf(root.querySelector('td.content'))).toContain('border-top: 4px solid #f59e0b');
    expect(root.querySelector('style')?.text).toContain('.content a { color: #f59e0b; }');
  });

  it('draws the button in primaryColor when no accentColor is set', () => {
    const root = parse(renderEmailLayout({ ...base, action, primaryColor: '#0f766e' }));
    expect(styleOf(root.querySelector('a.button'))).toContain('background-color: #0f766e');
    expect(styleOf(root.querySelector('td.content'))).toContain('border-top: 4px solid #1d4ed8');
  });

  it('is compiled once: every message is filled into the same inlined template', () => {
    const first = emailTemplate();
    renderEmailLayout(base);
    renderEmailLayout({ ...base, importance: 'critical' });
    expect(emailTemplate()).toBe(first);
  });
});

describe('renderEmailLayout escapes every value', () => {
  it('shows hostile title, footer, preheader and action label as text', () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(1)>"\'&';
    const root = parse(
      renderEmailLayout({
        title: hostile,
        bodyHtml: '',
        footerText: hostile,
        preheader: hostile,
        action: { label: hostile, url: 'https://a.example/?q="><script>' },
      }),
    );
    expect(root.querySelectorAll('script')).toHaveLength(0);
    expect(root.querySelectorAll('img')).toHaveLength(0);
    expect(root.querySelector('title')?.text).toBe(hostile);
    expect(root.querySelector('h1')?.text).toBe(hostile);
    expect(root.querySelector('td.footer')?.text).toBe(hostile);
    expect(root.querySelector('div.preheader')?.text).toBe(hostile);
    expect(root.querySelector('a.button')?.text).toBe(hostile);
    expect(root.querySelector('a.button')?.getAttribute('href')).toBe(
      'https://a.example/?q="><script>',
    );
  });

  it('sanitises bodyHtml again: no script, style, iframe, event handler or javascript: link', () => {
    const root = parse(
      renderEmailLayout({
        ...base,
        bodyHtml:
          '<p onclick="x()">hi</p><script>alert(1)</script><style>*{}</style><iframe src="https://e.example"></iframe><a href="javascript:alert(1)">j</a><a href="https://ok.example">ok</a>',
      }),
    );
    const content = root.querySelector('td.content')!;
    expect(content.querySelectorAll('script, style, iframe')).toHaveLength(0);
    expect(content.text).not.toContain('alert(1)');
    expect(content.querySelector('p')?.getAttribute('onclick')).toBeUndefined();
    expect(content.querySelectorAll('a').map((a) => a.getAttribute('href'))).toEqual([
      undefined,
      'https://ok.example',
    ]);
  });

  it("keeps markdownToHtml's action button recognisable, without its inline style", () => {
    const root = parse(
      renderEmailLayout({
        ...base,
        bodyHtml:
          '<p class="action"><a class="button evil" href="https://a.example" style="position:fixed">Go</a></p>',
      }),
    );
    const button = root.querySelector('td.content p.action a.button');
    expect(button?.getAttribute('class')).toBe('button');
    expect(button?.getAttribute('style')).toBeUndefined();
    expect(button?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('refuses colours that are not #rgb or #rrggbb, so no CSS can be injected', () => {
    const html = renderEmailLayout({
      ...base,
      action,
      primaryColor: 'red; background-image: url(https://evil.example/track)',
      accentColor: '#fff;}body{display:none',
    });
    expect(html).not.toContain('evil.example');
    expect(html).not.toContain('display:none');
    const root = parse(html);
    expect(styleOf(root.querySelector('a.button'))).toContain('background-color: #2563eb');
    expect(styleOf(root.querySelector('td.content'))).toContain('border-top: 4px solid #1d4ed8');
  });

  it('accepts three-digit colours', () => {
    const root = parse(
      renderEmailLayout({ ...base, action, primaryColor: '#0a0', accentColor: '#f90' }),
    );
    expect(styleOf(root.querySelector('td.header'))).toContain('background-color: #0a0;');
    expect(styleOf(root.querySelector('a.button'))).toContain('background-color: #f90;');
  });

  it('shows no logo for a javascript:, data: or mailto: address', () => {
    for (const logoUrl of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'mailto:a@b.example',
    ]) {
      expect(parse(renderEmailLayout({ ...base, logoUrl })).querySelector('img')).toBeNull();
    }
  });

  it('fills placeholders and colour markers only in the template, never in values', () => {
    const root = parse(
      renderEmailLayout({
        title: '%%BODY%% #0a0b0c',
        bodyHtml: '<p>%%TITLE%% #0d0e0f</p>',
        footerText: '%%ACTION_URL%%',
      }),
    );
    expect(root.querySelector('h1')?.text).toBe('%%BODY%% #0a0b0c');
    expect(root.querySelector('td.content p')?.text).toBe('%%TITLE%% #0d0e0f');
    expect(root.querySelector('td.footer')?.text).toBe('%%ACTION_URL%%');
  });
});
