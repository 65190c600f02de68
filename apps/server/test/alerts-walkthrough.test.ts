import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '@checkline/db/testing';
import type { SmtpTestServer } from '@checkline/notification-smtp/testing';
import { startSmtpTestServer } from '@checkline/notification-smtp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from './support/server-process.ts';
import { startServerProcess } from './support/server-process.ts';
import type { WalkthroughStep } from './support/walkthrough.ts';
import { startShell, walkthroughSteps } from './support/walkthrough.ts';

/**
 * docs/alerts-walkthrough.md, run as written: its `sh` blocks, in order, in one bash shell,
 * against a real server process (embedded database), a real SMTP server and an HTTP service on
 * loopback that goes down where the document says so. Each `# ...` line under a command is
 * output the block must print; the walkthrough ends with the alert e-mail in the admin's box.
 */
const walkthrough = new URL('../../../docs/alerts-walkthrough.md', import.meta.url);
const admin = { email: 'walkthrough@example.com', password: 'a-walkthrough-password' };

let scratch: string;
let smtp: SmtpTestServer;
let server: ServerProcess;
let baseUrl: string;
let serviceUp = true;
const service = createServer((_request, response) => {
  response.writeHead(serviceUp ? 200 : 503).end(serviceUp ? 'ok' : 'down for maintenance');
});

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'checkline-walkthrough-'));
  smtp = await startSmtpTestServer();
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const port = await freeLoopbackPort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = startServerProcess({
    PORT: String(port),
    DATA_DIR: join(scratch, 'data'),
    BASE_URL: baseUrl,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    // The service and the SMTP server of this test listen on loopback.
    CHECK_TARGETS_ALLOW: '127.0.0.0/8',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  await server.waitForLog((line) => line.msg === 'listening', 90_000);
}, 120_000);
afterAll(async () => {
  await server?.dispose();
  await smtp?.close();
  await new Promise((resolve) => service.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

describe('the walkthrough "Get alerted when a system goes down"', () => {
  it(
    'runs as written, from the first command to the alert e-mail',
    { timeout: 120_000 },
    async () => {
      const steps = walkthroughSteps(readFileSync(walkthrough, 'utf8'));
      expect(steps.filter((step) => !step.skip).length).toBeGreaterThanOrEqual(5);
      expect(steps.some((step) => step.serviceGoesDown)).toBe(true);
      const { port: servicePort } = service.address() as AddressInfo;
      const shell = startShell(scratch, {
        CHECKLINE: baseUrl,
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SERVICE_URL: `http://127.0.0.1:${servicePort}/health`,
      });
      try {
        for (const step of steps.filter((entry: WalkthroughStep) => !entry.skip)) {
          if (step.serviceGoesDown) serviceUp = false;
          const output = await shell.run(step.commands, 60_000);
          for (const expected of step.expectedOutput) {
            expect(output.split('\n'), `output of:\n${step.commands}`).toContain(expected);
          }
        }
      } finally {
        await shell.close();
      }

      const deadline = Date.now() + 20_000;
      const alert = () =>
        smtp.received.find(
          (mail) =>
            mail.recipients.includes(admin.email) &&
            mail.mail.subject === 'Now unhealthy: Checkout API',
        );
      while (!alert() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(alert()?.mail.text).toContain('Checkout ping');
      expect(alert()?.mail.text).toContain('Expected status 2xx, got 503');
    },
  );
});
