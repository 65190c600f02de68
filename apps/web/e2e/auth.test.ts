import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, signedInPage } from './support/browser.ts';
import { checkScreen } from './support/screen.ts';
import { startUiServer, testAdmin, type UiServer } from './support/ui-server.ts';

let ui: UiServer;
let browser: Browser;

beforeAll(async () => {
  ui = await startUiServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await ui?.close();
});

describe('signing in and out in a real browser', { timeout: 120_000 }, () => {
  it('sends a visitor to sign in, signs the admin in and lands where they were going', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${ui.url}/account`);
    await page.getByLabel('E-mail').waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await checkScreen(page, 'sign-in');

    await page.getByLabel('E-mail').fill(testAdmin.email);
    await page.getByLabel(/^Password/).fill(testAdmin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    await expect(page.getByText(`Signed in as ${testAdmin.email}`).isVisible()).resolves.toBe(true);
    await checkScreen(page, 'account');
    await context.close();
  });

  it('shows "Invalid username or password" for a wrong password', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${ui.url}/sign-in`);
    await page.getByLabel('E-mail').fill(testAdmin.email);
    await page.getByLabel(/^Password/).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Invalid username or password');
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await context.close();
  });

  it('shows the error page message with spaces, markup as text, and a way back', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${ui.url}/auth/error?error=${encodeURIComponent('Some_<b>bold</b>_text')}`);
    const message = page.getByTestId('auth-error-message');
    await message.waitFor();
    expect(await message.textContent()).toBe('Some <b>bold</b> text');
    expect(await page.locator('[data-testid=auth-error-message] b').count()).toBe(0);
    await checkScreen(page, 'auth-error');
    await page.getByRole('link', { name: 'Back to sign-in' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await context.close();
  });

  it('at 375 px hides the navigation behind a menu button that opens it and closes on navigating', async () => {
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${ui.url}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const navLink = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Applications' });
    // The collapsed navigation slides off the screen to the left.
    const onScreen = async () => {
      const box = await navLink.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 375;
    };
    expect(await onScreen()).toBe(false);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect.poll(onScreen).toBe(true);
    await navLink.click();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    await expect.poll(onScreen).toBe(false);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('signs out from the account menu, and the session no longer works', async () => {
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await checkScreen(page, 'overview');
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(`${ui.url}/account`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await context.close();
  });
});
