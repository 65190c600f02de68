/*
 * Markdown bodies that make naive parsers and sanitisers backtrack or rescan, beside an ordinary
 * alert body of the same size. The tests check every renderer's answer to them; `pnpm bench`
 * prints how long each takes beside the ordinary body.
 */

const fill = (unit: string, size: number) =>
  unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** What an ordinary alert body looks like: emphasis, a link, code and a list, repeated. */
export function ordinaryMarkdown(size: number): string {
  return fill(
    'The **api** check on [eu-west](https://status.example.com/eu) failed twice; see `logs`.\n\n- retry in 5 min\n- page the on-call\n\n',
    size,
  );
}

/** Hostile bodies by name, each exactly `size` characters. */
export function adversarialMarkdown(size: number): Record<string, string> {
  return {
    'open emphasis': fill('*a', size),
    'open underscores': fill('_a', size),
    'strong openers': fill('**a ', size),
    'open brackets': fill('[', size),
    'unclosed links': fill('[a](', size),
    'nested quotes': Array.from({ length: size }, (_, index) => '>'.repeat(index % 60) + ' x')
      .join('\n')
      .slice(0, size),
    'quote markers': fill('>', size),
    backticks: fill('`', size),
    'backtick runs': fill(
      Array.from({ length: 30 }, (_, index) => '`'.repeat(index) + 'a').join(''),
      size,
    ),
    'tag openers': fill('<a', size),
    ampersands: fill('&a', size),
    'list markers': fill('- ', size),
    'table pipes': fill('|', size),
  };
}
