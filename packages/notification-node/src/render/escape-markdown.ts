/**
 * Text that Markdown shows as written: every ASCII punctuation character (all that CommonMark
 * may read as syntax) is backslash-escaped, and line breaks become spaces so monitored text can
 * start no heading, list or quote. For names and titles users typed, put into Markdown bodies.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}
