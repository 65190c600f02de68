// Rendering time of hostile Markdown bodies beside an ordinary body of the same size, through
// every renderer a body goes through. A naive parser that backtracks shows as a large ratio.
import {
  markdownToChat,
  markdownToHtml,
  markdownToText,
  renderEmail,
} from '@checkline/notification-node';
import { adversarialMarkdown, ordinaryMarkdown } from '@checkline/notification-node/testing';

/** The longest body the notification contract takes. */
const SIZE = 10_000;

const renderers: ((markdown: string) => unknown)[] = [
  (markdown) => markdownToHtml(markdown),
  (markdown) => markdownToHtml(markdown, { maxLength: 4_000 }),
  (markdown) => markdownToText(markdown, { maxLength: 1_600 }),
  (markdown) => markdownToChat(markdown, { maxLength: 3_000 }),
  (markdown) =>
    renderEmail({ title: 'Alert', body: markdown, importance: 'critical', type: 'bench.render' }),
];

const renderAll = (markdown: string) => {
  for (const render of renderers) render(markdown);
};

/** The median of a few runs: one slow run on a busy machine does not decide. */
function medianMs(work: () => void, runs = 7): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

export function printMarkdownRenderRows(): void {
  const ordinary = ordinaryMarkdown(SIZE);
  renderAll(ordinary);
  const baseline = medianMs(() => renderAll(ordinary));
  const pad = (value: string, width: number) => value.padStart(width);
  console.log(`\nMarkdown rendering, ${SIZE} characters through every renderer (median of 7):`);
  console.log(`${'body'.padEnd(40)}${pad('ms', 9)}${pad('x ordinary', 12)}`);
  console.log(
    `${'ordinary alert (baseline)'.padEnd(40)}${pad(baseline.toFixed(1), 9)}${pad('1.0', 12)}`,
  );
  for (const [name, body] of Object.entries(adversarialMarkdown(SIZE))) {
    renderAll(body);
    const ms = medianMs(() => renderAll(body));
    console.log(`${name.padEnd(40)}${pad(ms.toFixed(1), 9)}${pad((ms / baseline).toFixed(1), 12)}`);
  }
  console.log('Target: every hostile body under 10x the ordinary one (measured, not asserted).');
}
