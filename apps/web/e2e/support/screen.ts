import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousAccessibilityViolations } from './axe.ts';
import { saveScreenshots } from './screenshots.ts';

/** Every screen a test visits: no serious or critical axe violation at either width, and screenshots. */
export async function checkScreen(page: Page, name: string) {
  expect(await seriousAccessibilityViolations(page), `${name} at 1280 px`).toEqual([]);
  await page.setViewportSize({ width: 375, height: 900 });
  expect(await seriousAccessibilityViolations(page), `${name} at 375 px`).toEqual([]);
  await saveScreenshots(page, name);
}
