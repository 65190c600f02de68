import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './escape-markdown.ts';
import { markdownToChat } from './markdown-to-chat.ts';

const action = { label: 'Open the incident', url: 'https://status.example/incidents/7' };

/** Everything Slack reads as a control sequence: `<…>` (links, mentions, commands). */
function controlSequences(mrkdwn: string): string[] {
  return [...mrkdwn.matchAll(/<[^>]*>/g)].map((match) => match[0]);
}

describe('markdownToChat writes Markdown as Slack mrkdwn', () => {
  it('writes emphasis, code, headings as bold, bullets and quotes', () => {
    expect(
      markdownToChat(
        '## Payments\n\n*slow* and **down** ~~maybe~~ `code`\n\n- one\n- two\n\n1. first\n\n> quoted\n\n```\nblock\n```',
      ),
    ).toBe(
      [
        '*Payments*',
        '_slow_ and *down* ~maybe~ `code`',
        '• one\n• two',
        '1. first',
        '> quoted',
        '```\nblock\n```',
      ].join('\n\n'),
    );
  });

  it('writes links as <url|label> and a bare address as <url>', () => {
    expect(markdownToChat('[docs](https://docs.example/a?b=1&c=2) <https://a.example>')).toBe(
      '<https://docs.example/a?b=1&amp;c=2|docs> <https://a.example>',
    );
  });

  it('appends the action as a <url|label> line', () => {
    expect(markdownToChat('Body', { action })).toBe(`Body\n\n<${action.url}|${action.label}>`);
  });

  it('writes nothing for an empty heading', () => {
    expect(markdownToChat('#\n\ntext')).toBe('text');
  });

  it('keeps a | in an address from ending it early', () => {
    expect(markdownToChat('[x](https://a.example/?q=a|b)')).toBe('<https://a.example/?q=a%7Cb|x>');
  });
});

describe('markdownToChat never lets content produce mentions or links', () => {
  it.each([
    ['text', 'Hey <!channel> and <!here> and <@U123> and <!subteam^S1>'],
    ['code span', '`<!channel>` `<@U123>` `<!here|here>`'],
    ['code block', '```\n<!channel>\n<@U123>\n```'],
    ['entities', '&lt;!channel&gt; &#60;@U123&#62;'],
    ['link label', '[<!channel>](https://a.example) [<@U123>](https://b.example)'],
    ['heading', '# <!here>'],
    ['raw link', '<https://evil.example|click here>'],
  ])('in %s', (_, markdown) => {
    const chat = markdownToChat(markdown);
    for (const sequence of controlSequences(chat)) {
      expect(sequence).toMatch(/^<https:\/\/[ab]\.example\|/);
    }
    expect(chat).not.toMatch(/<[!@#]/);
    expect(chat).toMatch(/&lt;/);
  });

  it('makes no link of javascript: or data: addresses', () => {
    const chat = markdownToChat(
      '[a](javascript:alert(1)) [b](data:text/html,x) <script>x</script>',
    );
    expect(controlSequences(chat)).toEqual([]);
    expect(chat).toBe(
      '[a](javascript:alert(1)) [b](data:text/html,x) &lt;script&gt;x&lt;/script&gt;',
    );
  });

  it('shows a monitored name passed through escapeMarkdown as text, not as a link', () => {
    const chat = markdownToChat(
      `System ${escapeMarkdown('[click](https://evil.example) <!channel>')} is down`,
    );
    expect(controlSequences(chat)).toEqual([]);
    expect(chat).toBe('System [click](https://evil.example) &lt;!channel&gt; is down');
  });

  it('escapes the action label', () => {
    const chat = markdownToChat('', {
      action: { label: '<!channel> go', url: 'https://a.example/x' },
    });
    expect(chat).toBe('<https://a.example/x|&lt;!channel&gt; go>');
  });
});

describe('markdownToChat keeps to maxLength', () => {
  const longBody = Array.from(
    { length: 300 },
    (_, index) => `word & <${index}> [link](https://a.example/${index})`,
  )
    .join(' ')
    .slice(0, 10_000);

  it.each([100, 300, 3_000, 9_000])(
    'cuts a 10 000-character body to %i characters, no sequence split',
    (limit) => {
      expect(longBody).toHaveLength(10_000);
      const chat = markdownToChat(longBody, { maxLength: limit, action });
      expect(chat.length).toBeLessThanOrEqual(limit);
      const [body, actionLine] = chat.split('\n\n');
      expect(actionLine).toBe(`<${action.url}|${action.label}>`);
      expect(body!.endsWith('…')).toBe(true);
      for (const sequence of controlSequences(body!))
        expect(sequence).toMatch(/^<https:\/\/a\.example\/\d+\|link>$/);
      expect(body).not.toMatch(/<[^>]*$/);
      expect(body).not.toMatch(/&[a-z]*…$/);
    },
  );

  it('drops a code block the cut would leave open', () => {
    const chat = markdownToChat(`intro\n\n\`\`\`\n${'line\n'.repeat(100)}\`\`\``, {
      maxLength: 60,
    });
    expect(chat).toBe('intro…');
  });
});
