import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The dialog once it has faded in: axe measures colours as drawn. */
export async function openedDialog(page: Page, name: string, timeout = 60_000) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor({ timeout });
  await expect
    .poll(() => dialog.evaluate((element) => getComputedStyle(element).opacity), { timeout })
    .toBe('1');
  return dialog;
}
