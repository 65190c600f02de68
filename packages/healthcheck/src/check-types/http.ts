import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { QueuedWait } from '../check-type.ts';
import { defineHealthCheckType } from '../check-type.ts';
import { withDeadline } from '../deadline.ts';
import { sharedPinnedAgent } from '@checkline/net';
import { discardBody, sendCheckRequest } from './http-request.ts';
import { fail, failure, pass } from './outcome.ts';
import { readStart } from './read-start.ts';
import { configTimeoutMs, effectiveTimeout } from './timeout.ts';

/** Bodies are searched in their first MiB only; the rest is never read. */
const MAX_BODY_BYTES = 1024 * 1024;

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Not a valid header name');
const headerValue = z.string().regex(/^[^\r\n\0]*$/, 'Header values cannot hold line breaks');
const statusCode = z.number().int().min(100).max(599);

export const HttpCheckConfigSchema = z.object({
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).default('GET'),
  url: z.url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' }),
  headers: z.record(headerName, headerValue).default({}),
  /** Status codes that pass. Default: any 2xx. */
  expectedStatus: z.array(statusCode).min(1).max(100).optional(),
  /** Text the response body must contain (searched in its first MiB). */
  bodyContains: z.string().min(1).max(1_000).optional(),
  timeoutMs: configTimeoutMs,
  /** A redirect is an answer of its own unless this is true (then at most 5, each vetted). */
  followRedirects: z.boolean().default(false),
});
export type HttpCheckConfig = z.infer<typeof HttpCheckConfigSchema>;

/** A wait with no scheduler around it (a type run on its own): cancellable by `signal` only. */
const waitUntil =
  (signal: AbortSignal): QueuedWait =>
  (wait) =>
    wait(signal);

const describeExpected = (expected: number[] | undefined) =>
  expected ? expected.join(', ') : '2xx';

export const httpCheckType = defineHealthCheckType({
  id: 'http',
  displayName: 'HTTP',
  description: 'Requests a URL and checks the status code and, optionally, the body.',
  config: HttpCheckConfigSchema,
  targets: (config) => [{ path: 'url', host: new URL(config.url).hostname }],
  async run(config, { signal, timeoutMs, targets, queued = waitUntil(signal) }) {
    const limit = effectiveTimeout(timeoutMs, config.timeoutMs);
    // Kept-alive connections per origin are reused across runs (bounded sockets per origin).
    // The wait for one of them is ours, not the target's: it happens before the deadline starts.
    const agent = sharedPinnedAgent(targets);
    const origin = new URL(config.url).origin;
    const releaseSlot = await queued((waiting) => agent.slots.acquire(origin, waiting));
    const deadline = withDeadline(signal, limit);
    const startedAt = performance.now();
    let response: Dispatcher.ResponseData | undefined;
    try {
      response = await sendCheckRequest(config, agent, deadline.signal);
      const status = response.statusCode;
      const expected = config.expectedStatus;
      const statusOk = expected ? expected.includes(status) : status >= 200 && status < 300;
      if (!statusOk) {
        return fail(startedAt, `Expected status ${describeExpected(expected)}, got ${status}`);
      }
      if (config.bodyContains === undefined) return pass(startedAt, `Status ${status}`);
      const text = await readStart(response.body, MAX_BODY_BYTES);
      if (!text.includes(config.bodyContains)) {
        return fail(startedAt, `Status ${status}, but the body lacks "${config.bodyContains}"`);
      }
      return pass(startedAt, `Status ${status}`);
    } catch (error) {
      return failure(startedAt, error, deadline.signal, `Timed out after ${limit} ms`);
    } finally {
      deadline.release();
      if (response) discardBody(response);
      releaseSlot();
    }
  },
});
