import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumExecutable, chromiumFlags } from '@checkline/vitest-config/chromium';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeMarkdown } from './escape-markdown.ts';
import { renderEmail } from './render-email.ts';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const LOGO_URL = 'https://cdn.example/logo.svg';
/** A logo far wider than the layout allows: the layout must shrink it. */
const WIDE_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="120"><rect width="900" height="120" fill="#0f766e"/></svg>';

const action = { label: 'Open the incident', url: 'https://status.example/incidents/7' };

/** A message made to overflow: long unbroken words, a long URL, code, a table. */
const email = renderEmail(
  {
    title: `Payments API [eu-west-1] <b>is down</b>: ${'x'.repeat(80)}`,
    importance: 'critical',
    body: [
      `The check failed ${'3'.repeat(120)} times.`,
      `System ${escapeMarkdown('[click](https://evil.example)')}: see https://logs.example/${'segment/'.repeat(30)} and [the runbook](https://runbooks.example/${'a'.repeat(150)}).`,
      '- first symptom\n- second symptom with a `very_long_identifier_that_does_not_break_anywhere_at_all_really`',
      `\`\`\`\n${'stack frame at com.example.payments.Service.process(Service.java:42) '.repeat(4)}\n\`\`\``,
      `| host | status |\n|---|---|\n| ${'h'.repeat(90)} | down |`,
    ].join('\n\n'),
    action,
    type: 'healthcheck.status_changed',
  },
  { logoUrl: LOGO_URL, footerText: `Acme Corp · ${'Unsubscribe in settings '.repeat(6)}` },
);

let browser: Browser;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: chromiumFlags,
    timeout: 60_000,
  });
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

describe('the rendered e-mail in headless Chromium', () => {
  it.each([320, 600])(
    'at %i px wide does not overflow and shows the action button (screenshot kept)',
    async (width) => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      const requested: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        requested.push(url);
        if (url === LOGO_URL) {
          return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: WIDE_LOGO });
        }
        return route.abort();
      });
      await page.setContent(email.html, { waitUntil: 'load', timeout: 30_000 });

      // A string: the test is compiled without the DOM's types.
      const layout = await page.evaluate<{
        scrollWidth: number;
        bodyScrollWidth: number;
        innerWidth: number;
      }>(
        '({ scrollWidth: document.documentElement.scrollWidth, bodyScrollWidth: document.body.scrollWidth, innerWidth: window.innerWidth })',
      );
      expect(layout.innerWidth).toBe(width);
      expect(layout.scrollWidth).toBeLessThanOrEqual(width);
      expect(layout.bodyScrollWidth).toBeLessThanOrEqual(width);

      const button = page.locator('a.button');
      await expect.poll(() => button.isVisible(), { timeout: 5_000 }).toBe(true);
      const box = await button.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(await button.getAttribute('href')).toBe(action.url);

      const logo = await page.locator('img.logo').boundingBox();
      expect(logo!.width).toBeGreaterThan(0);
      expect(logo!.width).toBeLessThanOrEqual(200);
      expect(await page.locator('div.preheader').isVisible()).toBe(false);
      expect(await page.locator('h1').isVisible()).toBe(true);
      expect(requested).toEqual([LOGO_URL]);

      const file = join(artifacts, `email-${width}px.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(statSync(file).size).toBeGreaterThan(1_000);
      await page.close();
    },
    60_000,
  );
});
