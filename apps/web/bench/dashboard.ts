// `pnpm bench` (the web row): the dashboard's first screen in Chromium with 50 and with 5 000
// systems, each on its own real server and database, measured with the Performance API in the
// same run, and printed as one table.
import type { Browser } from 'playwright-core';
import { launchBrowser, signedInPage } from '../e2e/support/browser.ts';
import { startUiServer, testAdmin } from '../e2e/support/ui-server.ts';
import { buildWebIfStale } from '../scripts/build.ts';

const sizes = [50, 5_000];
const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 5);
const SEED_CONCURRENCY = 10;
const FIRST_SCREEN_TIMEOUT_MS = 60_000;

/** Marks the moment the first system row, with its status, is in the page. */
const markFirstRow = () => {
  const observer = new MutationObserver(() => {
    if (document.querySelector('[data-system] [data-status]')) {
      performance.mark('dashboard-first-row');
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
};

async function seed(call: (input: object) => Promise<unknown>, count: number) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = (next += 1);
      await call({ name: `bench-system-${String(index).padStart(5, '0')}`, tags: ['bench'] });
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
}

/** Milliseconds from navigation start to the first row, once per run, on a server with `count` systems. */
async function measure(browser: Browser, count: number): Promise<number[]> {
  const ui = await startUiServer();
  try {
    const session = await ui.sessionOf(testAdmin.email, testAdmin.password);
    await seed((input) => ui.call('catalog', 'createSystem', input, session), count);
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await page.addInitScript(markFirstRow);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await page.goto(`${ui.url}/`);
      const at = await page.waitForFunction(
        () => performance.getEntriesByName('dashboard-first-row')[0]?.startTime,
        undefined,
        { timeout: FIRST_SCREEN_TIMEOUT_MS },
      );
      times.push(Math.round((await at.jsonValue()) as number));
      const shown = await page.getByRole('radio', { name: `all ${count}` }).count();
      if (shown !== 1) throw new Error(`the dashboard did not count ${count} systems`);
    }
    await context.close();
    return times;
  } finally {
    await ui.close();
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await buildWebIfStale();
const browser = await launchBrowser();
try {
  const rows: { systems: number; median: number; runs: number[] }[] = [];
  for (const count of sizes) {
    const runs = await measure(browser, count);
    rows.push({ systems: count, median: median(runs), runs });
  }
  const base = rows[0]!.median;
  console.log(
    '\nDashboard first screen in Chromium (navigation start to the first row with its status)',
  );
  console.log('systems | median ms | x 50-system time | runs (ms)');
  for (const row of rows) {
    console.log(
      `${String(row.systems).padStart(7)} | ${String(row.median).padStart(9)} | ${(row.median / base).toFixed(2).padStart(16)} | ${row.runs.join(', ')}`,
    );
  }
} finally {
  await browser.close();
}
