import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousAccessibilityViolations } from './axe.ts';
import { whatDoesNotFit } from './fit.ts';
import { saveScreenshots } from './screenshots.ts';

/**
 * Every screen a test visits: no serious or critical axe violation at either width, nothing cut
 * short or past the right edge at 375 px, and screenshots.
 */
export async function checkScreen(page: Page, name: string) {
  expect(await seriousAccessibilityViolations(page), `${name} at 1280 px`).toEqual([]);
  await page.setViewportSize({ width: 375, height: 900 });
  expect(await seriousAccessibilityViolations(page), `${name} at 375 px`).toEqual([]);
  const notFitting = await whatDoesNotFit(page);
  // Saved before failing on a layout that does not fit, so the screenshot shows it.
  await saveScreenshots(page, name);
  expect(notFitting, `${name} at 375 px`).toEqual([]);
}
