import { existsSync } from 'node:fs';

/** Debian's chromium, which the browser tests drive through playwright-core. */
export const chromiumPath = '/usr/bin/chromium';

/** Headless, and nothing that reaches the network on its own. */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The browser's path, or an error saying what to install: the test command does not install
 * system packages (`.ci/run` does, through `scripts/ensure-chromium.sh`).
 */
export function chromiumExecutable() {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `The browser tests need Debian's chromium at ${chromiumPath}: install it with ` +
        '`apt-get install chromium` (or run `.ci/run`, which installs it).',
    );
  }
  return chromiumPath;
}
