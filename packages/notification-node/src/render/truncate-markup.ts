export const ELLIPSIS = '…';

/**
 * The text cut to at most `limit` characters on the last word boundary (a hard cut when a
 * single word is longer), ending with an ellipsis. `unsafeTail` drops an unfinished construct
 * from the end of the cut (a half-written Slack link or entity).
 */
export function truncateOnBoundary(
  text: string,
  limit: number,
  unsafeTail?: (cut: string) => string,
): string {
  if (text.length <= limit) return text;
  if (limit <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(limit, 0));
  const room = limit - ELLIPSIS.length;
  const window = text.slice(0, room + 1);
  const boundary = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'));
  let cut = boundary > 0 ? text.slice(0, boundary) : text.slice(0, room);
  if (unsafeTail) cut = unsafeTail(cut);
  return cut.trimEnd() + ELLIPSIS;
}

/**
 * Body and action within `maxLength`: the body is cut to what is left after the action, which
 * is always kept (alone when the limit cannot hold more).
 */
export function fitWithAction(
  body: string,
  actionLine: string | undefined,
  maxLength: number | undefined,
  separator: string,
  unsafeTail?: (cut: string) => string,
): string {
  const suffix = actionLine === undefined ? '' : body === '' ? actionLine : separator + actionLine;
  if (maxLength === undefined) return body + suffix;
  const room = maxLength - suffix.length;
  if (room <= ELLIPSIS.length) return actionLine ?? truncateOnBoundary(body, maxLength, unsafeTail);
  return truncateOnBoundary(body, room, unsafeTail) + suffix;
}
