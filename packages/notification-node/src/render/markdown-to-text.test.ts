import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './escape-markdown.ts';
import { markdownToText } from './markdown-to-text.ts';

const action = { label: 'Open the incident', url: 'https://status.example/incidents/7' };

describe('markdownToText writes Markdown as plain text', () => {
  it('keeps headings, paragraphs, lists and quotes readable, one blank line between blocks', () => {
    const text = markdownToText(
      '# Payments down\n\n\n\nThe *API* is **slow**.\n\n- first\n- second\n  1. nested\n\n5. five\n6. six\n\n> quoted\n> twice\n\n---\n\n```\nline 1\nline 2\n```',
    );
    expect(text).toBe(
      [
        'Payments down',
        'The API is slow.',
        '- first\n- second\n  1. nested',
        '5. five\n6. six',
        '> quoted\n> twice',
        '---',
        'line 1\nline 2',
      ].join('\n\n'),
    );
  });

  it('writes links as "label (url)" and a bare address once', () => {
    expect(
      markdownToText(
        'See [the docs](https://docs.example/x) or <https://a.example> or <ops@example.com>.',
      ),
    ).toBe('See the docs (https://docs.example/x) or https://a.example or ops@example.com.');
  });

  it('writes a table as rows of cells', () => {
    expect(markdownToText('| a | b |\n|---|---|\n| 1 | 2 |')).toBe('a | b\n1 | 2');
  });

  it('appends the action as a "label: url" line', () => {
    expect(markdownToText('Body.', { action })).toBe(
      'Body.\n\nOpen the incident: https://status.example/incidents/7',
    );
    expect(markdownToText('', { action })).toBe(
      'Open the incident: https://status.example/incidents/7',
    );
  });
});

describe('markdownToText and hostile input', () => {
  it('shows raw HTML as the characters written, with no link made of it', () => {
    expect(markdownToText('<script>alert(1)</script>\n\nA <b>bold</b> claim')).toBe(
      '<script>alert(1)</script>\n\nA <b>bold</b> claim',
    );
  });

  it('writes no address for javascript: and data: links', () => {
    const text = markdownToText('[a](javascript:alert(1)) [b](data:text/html,x)');
    expect(text).toBe('[a](javascript:alert(1)) [b](data:text/html,x)');
  });

  it('shows a monitored name passed through escapeMarkdown exactly as it is', () => {
    const name = '[click](https://evil.example) *now*';
    expect(markdownToText(`System ${escapeMarkdown(name)} is down`)).toBe(`System ${name} is down`);
  });

  it('drops an action whose address is not http, https or mailto', () => {
    expect(markdownToText('Body', { action: { label: 'x', url: 'javascript:alert(1)' } })).toBe(
      'Body',
    );
  });
});

describe('markdownToText keeps to maxLength', () => {
  const longBody = 'lorem ipsum dolor sit amet '.repeat(400).slice(0, 10_000);

  it.each([80, 160, 1_000, 5_000])(
    'cuts a 10 000-character body to %i characters on a word, action kept',
    (limit) => {
      const text = markdownToText(longBody, { maxLength: limit, action });
      expect(text.length).toBeLessThanOrEqual(limit);
      const [body, actionLine] = text.split('\n\n');
      expect(actionLine).toBe(`${action.label}: ${action.url}`);
      expect(body).toMatch(/^(lorem|ipsum|dolor|sit|amet)( (lorem|ipsum|dolor|sit|amet))*…$/);
    },
  );

  it('cuts a body without action to the limit', () => {
    const text = markdownToText(longBody, { maxLength: 160 });
    expect(text.length).toBeLessThanOrEqual(160);
    expect(text.length).toBeGreaterThan(140);
    expect(text.endsWith('…')).toBe(true);
  });

  it('cuts a single overlong word hard', () => {
    expect(markdownToText('x'.repeat(10_000), { maxLength: 10 })).toBe(`${'x'.repeat(9)}…`);
  });

  it('answers the action line alone when the limit cannot hold more', () => {
    expect(markdownToText(longBody, { maxLength: 20, action })).toBe(
      `${action.label}: ${action.url}`,
    );
  });
});
