import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium, as the machine and CI have it (scripts/ensure-chromium.sh installs it). */
const chromiumPath = '/usr/bin/chromium';

const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless chromium; Playwright gives every launch a fresh temporary profile (user-data-dir). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: flags, headless: true });
}

/** A new context (its own cookies) and page at 1280 px, the desktop width. */
export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  return { context, page };
}

/**
 * A page already signed in as the given person: the credential strategy's sign-in is posted from
 * the context (sharing its cookie jar) with our own Origin, as the app's form does.
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  credentials: { email: string; password: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser);
  const response = await context.request.post(`${baseUrl}/api/auth-backend/custom/login`, {
    data: { username: credentials.email, password: credentials.password },
    headers: { origin: baseUrl },
    maxRedirects: 0,
  });
  if (response.status() !== 200) {
    throw new Error(`sign-in of ${credentials.email} failed: ${response.status()}`);
  }
  return { context, page };
}
