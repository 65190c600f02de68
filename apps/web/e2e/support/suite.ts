import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startUiServer, testAdmin, type UiServer } from './ui-server.ts';

/** What most browser tests start with: the server and UI, a chromium, the admin's API session. */
export interface BrowserSuite {
  ui: UiServer;
  browser: Browser;
  admin: Record<string, string>;
}

export async function startBrowserSuite(): Promise<BrowserSuite> {
  const ui = await startUiServer();
  const browser = await launchBrowser();
  const admin = await ui.sessionOf(testAdmin.email, testAdmin.password);
  return { ui, browser, admin };
}

/** Closes what a test started, in order, skipping what never started (a failed beforeAll). */
export async function closeAll(
  ...started: ({ close(): Promise<unknown> } | undefined)[]
): Promise<void> {
  for (const thing of started) await thing?.close();
}
