import { markdownToChat } from './markdown-to-chat.ts';
import type { RenderAction } from './render-options.ts';
import { isSafeLinkUrl } from './safe-url.ts';
import { truncateOnBoundary } from './truncate-markup.ts';

/** Slack caps: header text 150, section text 3 000, button label 75, button URL 3 000. */
const HEADER_LIMIT = 150;
const SECTION_LIMIT = 3_000;
const BUTTON_LABEL_LIMIT = 75;
const BUTTON_URL_LIMIT = 3_000;

export interface SlackText {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
}

export type SlackBlock =
  | { type: 'header'; text: SlackText & { type: 'plain_text' } }
  | { type: 'section'; text: SlackText & { type: 'mrkdwn' } }
  | {
      type: 'actions';
      elements: {
        type: 'button';
        text: SlackText & { type: 'plain_text' };
        url: string;
        style?: 'primary' | 'danger';
      }[];
    };

export interface SlackBlocksInput {
  title: string;
  /** Markdown. */
  body?: string;
  action?: RenderAction;
  /** Most characters of the body's section (at most Slack's 3 000). */
  maxLength?: number;
}

/**
 * A message in Slack's Block Kit: the title as a header (plain text, which Slack never reads
 * as mentions), the body as a `mrkdwn` section, the action as a link button.
 */
export function slackBlocks(input: SlackBlocksInput): SlackBlock[] {
  const blocks: SlackBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: truncateOnBoundary(input.title, HEADER_LIMIT),
        emoji: true,
      },
    },
  ];
  const body = input.body
    ? markdownToChat(input.body, {
        maxLength: Math.min(input.maxLength ?? SECTION_LIMIT, SECTION_LIMIT),
      })
    : '';
  if (body !== '') blocks.push({ type: 'section', text: { type: 'mrkdwn', text: body } });
  const action = input.action;
  if (action && isSafeLinkUrl(action.url) && action.url.length <= BUTTON_URL_LIMIT) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: {
            type: 'plain_text',
            text: truncateOnBoundary(action.label, BUTTON_LABEL_LIMIT),
            emoji: true,
          },
          url: action.url,
          style: 'primary',
        },
      ],
    });
  }
  return blocks;
}
