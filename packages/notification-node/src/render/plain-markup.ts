import type { Token } from './markdown-parser.ts';

/** How one line-based markup (plain text, Slack mrkdwn) writes what Markdown parsed. */
export interface PlainMarkupStyle {
  /** Text taken from the message, made inert for the target. */
  escape(text: string): string;
  strong(inner: string): string;
  emphasis(inner: string): string;
  strikethrough(inner: string): string;
  code(content: string): string;
  link(label: string, href: string): string;
  heading(text: string, level: number): string;
  codeBlock(content: string): string;
  bullet: string;
  rule: string;
}

type Container =
  | { kind: 'bullet_list' }
  | { kind: 'ordered_list'; next: number }
  | { kind: 'list_item'; marker: string; markerWritten: boolean }
  | { kind: 'blockquote' };

/**
 * Writes parsed Markdown tokens in a line-based markup: one leaf block (paragraph, heading,
 * code, rule, table) at a time, prefixed by the list markers and quote signs around it. Blocks
 * are separated by one blank line, the items of one list by a line break.
 */
export function renderPlainMarkup(tokens: Token[], style: PlainMarkupStyle): string {
  const containers: Container[] = [];
  let output = '';
  let previousList: Container | undefined;

  const writeLeaf = (text: string) => {
    const list = containers.find((c) => c.kind === 'bullet_list' || c.kind === 'ordered_list');
    const lines = text.split('\n').map((line, index) => prefixFor(containers, index === 0) + line);
    if (output !== '') output += list && list === previousList ? '\n' : '\n\n';
    output += lines.join('\n').replace(/[ \t]+$/gm, '');
    previousList = list;
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    switch (token.type) {
      case 'bullet_list_open':
        containers.push({ kind: 'bullet_list' });
        break;
      case 'ordered_list_open':
        containers.push({ kind: 'ordered_list', next: Number(token.attrGet('start') ?? 1) });
        break;
      case 'list_item_open': {
        const list = containers.at(-1);
        const marker = list?.kind === 'ordered_list' ? `${list.next++}. ` : `${style.bullet} `;
        containers.push({ kind: 'list_item', marker, markerWritten: false });
        break;
      }
      case 'blockquote_open':
        containers.push({ kind: 'blockquote' });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'list_item_close':
      case 'blockquote_close':
        containers.pop();
        break;
      case 'inline': {
        const parent = tokens[index - 1];
        const text = renderInline(token.children ?? [], style);
        if (text.trim() === '') break;
        writeLeaf(
          parent?.type === 'heading_open' ? style.heading(text, Number(parent.tag.slice(1))) : text,
        );
        break;
      }
      case 'fence':
      case 'code_block':
        writeLeaf(style.codeBlock(token.content.replace(/\n$/, '')));
        break;
      case 'hr':
        writeLeaf(style.rule);
        break;
      case 'table_open':
        index = renderTable(tokens, index, style, writeLeaf);
        break;
      default:
        break;
    }
  }
  return output.replace(/\n{3,}/g, '\n\n').trim();
}

function prefixFor(containers: Container[], firstLine: boolean): string {
  let prefix = '';
  for (const container of containers) {
    if (container.kind === 'blockquote') prefix += '> ';
    if (container.kind === 'list_item') {
      if (firstLine && !container.markerWritten) {
        prefix += container.marker;
        container.markerWritten = true;
      } else {
        prefix += ' '.repeat(container.marker.length);
      }
    }
  }
  return prefix;
}

/** A table as one block: a line per row, cells separated by ` | `. Answers the closing index. */
function renderTable(
  tokens: Token[],
  start: number,
  style: PlainMarkupStyle,
  writeLeaf: (text: string) => void,
): number {
  const rows: string[] = [];
  let cells: string[] = [];
  let index = start;
  for (; index < tokens.length && tokens[index]!.type !== 'table_close'; index++) {
    const token = tokens[index]!;
    if (token.type === 'inline') cells.push(renderInline(token.children ?? [], style));
    if (token.type === 'tr_close') {
      rows.push(cells.join(' | '));
      cells = [];
    }
  }
  writeLeaf(rows.join('\n'));
  return index;
}

function renderInline(tokens: Token[], style: PlainMarkupStyle): string {
  const frames: { close: (inner: string) => string; text: string }[] = [
    { close: (inner) => inner, text: '' },
  ];
  const append = (text: string) => {
    frames.at(-1)!.text += text;
  };
  const open = (close: (inner: string) => string) => frames.push({ close, text: '' });
  const close = () => {
    const frame = frames.length > 1 ? frames.pop()! : undefined;
    if (frame) append(frame.close(frame.text));
  };

  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        append(style.escape(token.content));
        break;
      case 'softbreak':
      case 'hardbreak':
        append('\n');
        break;
      case 'code_inline':
        append(style.code(token.content));
        break;
      case 'strong_open':
        open(style.strong);
        break;
      case 'em_open':
        open(style.emphasis);
        break;
      case 's_open':
        open(style.strikethrough);
        break;
      case 'link_open': {
        const href = String(token.attrGet('href') ?? '');
        open((label) => style.link(label, href));
        break;
      }
      case 'strong_close':
      case 'em_close':
      case 's_close':
      case 'link_close':
        close();
        break;
      default:
        if (token.content) append(style.escape(token.content));
    }
  }
  while (frames.length > 1) close();
  return frames[0]!.text;
}
