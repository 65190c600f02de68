export { escapeMarkdown } from './escape-markdown.ts';
export type { RenderAction, RenderOptions } from './render-options.ts';
export { markdownToHtml } from './markdown-to-html.ts';
export { markdownToText } from './markdown-to-text.ts';
export { escapeChat, markdownToChat } from './markdown-to-chat.ts';
export {
  slackBlocks,
  type SlackBlock,
  type SlackBlocksInput,
  type SlackText,
} from './slack-blocks.ts';
export { renderEmailLayout, type EmailImportance, type EmailLayoutInput } from './email-layout.ts';
export { renderEmail, type EmailBranding, type RenderedEmail } from './render-email.ts';
export { emailTemplate } from './email-template.ts';
