import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const artifactsFolder = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** The widths every screen is shown at: a laptop and a small phone. */
const screenshotWidths = [1280, 375] as const;

/**
 * Saves `e2e/artifacts/{name}-{width}.png` at each width (whole page), then restores 1280 px.
 * The screen must be ready (the test waited for its content) before this is called.
 */
export async function saveScreenshots(page: Page, name: string): Promise<string[]> {
  mkdirSync(artifactsFolder, { recursive: true });
  const files: string[] = [];
  for (const width of screenshotWidths) {
    await page.setViewportSize({ width, height: 900 });
    // Mantine switches layouts with media queries; let one frame settle after the resize.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    const file = join(artifactsFolder, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
    files.push(file);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return files;
}
