import type { HTMLElement } from 'node-html-parser';
import { parse as parseHtml } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './escape-markdown.ts';
import { renderEmail } from './render-email.ts';

function parse(html: string): HTMLElement {
  return parseHtml(html, { blockTextElements: { script: true, style: true } });
}

const action = { label: 'Open the incident', url: 'https://status.example/incidents/7' };

describe('renderEmail writes a notification as subject, HTML and text parts', () => {
  it('puts title, body, action and branding in both parts', () => {
    const email = renderEmail(
      {
        title: 'Payments API is down',
        body: 'The **Payments API** failed.\n\n- check 1\n- check 2',
        importance: 'critical',
        action,
        type: 'healthcheck.status_changed',
      },
      { logoUrl: 'https://cdn.example/logo.png', primaryColor: '#0f766e', footerText: 'Acme' },
    );
    expect(email.subject).toBe('Payments API is down');
    expect(email.text).toBe(
      'Payments API is down\n\nThe Payments API failed.\n\n- check 1\n- check 2\n\nOpen the incident: https://status.example/incidents/7',
    );
    const root = parse(email.html);
    expect(root.querySelector('h1')?.text).toBe('Payments API is down');
    expect(root.querySelector('td.content strong')?.text).toBe('Payments API');
    expect(root.querySelectorAll('td.content li').map((li) => li.text)).toEqual([
      'check 1',
      'check 2',
    ]);
    expect(root.querySelector('a.button')?.getAttribute('href')).toBe(action.url);
    expect(root.querySelector('a.button')?.getAttribute('style')).toContain('#0f766e');
    expect(root.querySelector('td.header')?.getAttribute('style')).toContain('#b91c1c');
    expect(root.querySelector('img.logo')?.getAttribute('src')).toBe(
      'https://cdn.example/logo.png',
    );
    expect(root.querySelector('td.footer')?.text).toBe('Acme');
    expect(root.querySelector('div.preheader')?.text).toBe(
      'The Payments API failed. - check 1 - check 2',
    );
  });

  it('writes a subject on one line whatever the title holds', () => {
    const email = renderEmail({ title: 'Down\r\nBcc: victim@example.com', type: 'a.b' });
    expect(email.subject).toBe('Down Bcc: victim@example.com');
    expect(email.text).toBe('Down Bcc: victim@example.com');
  });

  it('keeps a hostile monitored name inert in every part', () => {
    const name = '[click](https://evil.example) <script>alert(1)</script>';
    const email = renderEmail({
      title: `System ${name} is down`,
      body: `System **${escapeMarkdown(name)}** is down.`,
      type: 'a.b',
    });
    const root = parse(email.html);
    expect(root.querySelectorAll('script')).toHaveLength(0);
    expect(root.querySelectorAll('a')).toHaveLength(0);
    expect(root.querySelector('td.content strong')?.text).toBe(name);
    expect(root.querySelector('h1')?.text).toBe(`System ${name} is down`);
    expect(email.text).toContain(`System ${name} is down.`);
  });

  it('keeps both parts of a 10 000-character body to maxLength, the action kept', () => {
    const body = 'status update '.repeat(800).slice(0, 10_000);
    const email = renderEmail(
      { title: 'Long', body, action, type: 'a.b' },
      {},
      { maxLength: 2_000 },
    );
    expect(email.text.length).toBeLessThanOrEqual(2_000);
    expect(email.text.endsWith(`${action.label}: ${action.url}`)).toBe(true);
    const content = parse(email.html).querySelector('td.content')!;
    expect(content.innerHTML.length).toBeLessThanOrEqual(2_000);
    expect(content.text.trim().endsWith('…')).toBe(true);
    expect(parse(email.html).querySelector('a.button')?.getAttribute('href')).toBe(action.url);
  });
});
