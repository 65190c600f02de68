import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './escape-markdown.ts';
import { slackBlocks } from './slack-blocks.ts';

const action = { label: 'Open the incident', url: 'https://status.example/incidents/7' };

describe('slackBlocks builds a Block Kit message', () => {
  it('has a plain-text header, a mrkdwn section and a link button', () => {
    expect(slackBlocks({ title: 'Payments down', body: 'It is **down**.', action })).toEqual([
      { type: 'header', text: { type: 'plain_text', text: 'Payments down', emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: 'It is *down*.' } },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: action.label, emoji: true },
            url: action.url,
            style: 'primary',
          },
        ],
      },
    ]);
  });

  it('leaves out the section without a body and the actions without an action', () => {
    expect(slackBlocks({ title: 'Only a title' }).map((block) => block.type)).toEqual(['header']);
  });

  it('makes no button of a javascript: action', () => {
    const blocks = slackBlocks({
      title: 'x',
      body: 'y',
      action: { label: 'x', url: 'javascript:alert(1)' },
    });
    expect(blocks.map((block) => block.type)).toEqual(['header', 'section']);
  });

  it('escapes mentions in the body, code spans included', () => {
    const name = escapeMarkdown('[click](https://evil.example) <!channel>');
    const blocks = slackBlocks({ title: 'x', body: `${name} \`<@U123>\` <!here>` });
    const section = blocks.find((block) => block.type === 'section');
    expect(section?.type === 'section' && section.text.text).toBe(
      '[click](https://evil.example) &lt;!channel&gt; `&lt;@U123&gt;` &lt;!here&gt;',
    );
  });

  it('keeps header, section and button label within Slack limits for 10 000-character input', () => {
    const long = 'word '.repeat(2_000);
    const blocks = slackBlocks({
      title: long,
      body: long,
      action: { label: long, url: action.url },
    });
    const [header, section, actions] = blocks;
    expect(header?.type === 'header' && header.text.text.length).toBeLessThanOrEqual(150);
    expect(section?.type === 'section' && section.text.text.length).toBeLessThanOrEqual(3_000);
    expect(
      actions?.type === 'actions' && actions.elements[0]!.text.text.length,
    ).toBeLessThanOrEqual(75);
    const limited = slackBlocks({ title: 't', body: long, maxLength: 500 });
    expect(limited[1]?.type === 'section' && limited[1].text.text.length).toBeLessThanOrEqual(500);
    expect(limited[1]?.type === 'section' && limited[1].text.text.endsWith('…')).toBe(true);
  });
});
