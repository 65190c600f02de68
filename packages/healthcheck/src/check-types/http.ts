import { z } from 'zod';
import { defineHealthCheckType } from '../check-type.ts';
import { isTimeout, withDeadline } from '../deadline.ts';
import { describeNetworkError, fail, pass } from './outcome.ts';
import { configTimeoutMs, effectiveTimeout } from './timeout.ts';

/** Bodies are searched in their first MiB only. */
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
  /** A redirect is an answer of its own unless this is true. Default false. */
  followRedirects: z.boolean().default(false),
});
export type HttpCheckConfig = z.infer<typeof HttpCheckConfigSchema>;

async function readStart(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (bytes < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text + decoder.decode();
}

const describeExpected = (expected: number[] | undefined) =>
  expected ? expected.join(', ') : '2xx';

export const httpCheckType = defineHealthCheckType({
  id: 'http',
  displayName: 'HTTP',
  description: 'Requests a URL and checks the status code and, optionally, the body.',
  config: HttpCheckConfigSchema,
  async run(config, { signal, timeoutMs }) {
    const limit = effectiveTimeout(timeoutMs, config.timeoutMs);
    const deadline = withDeadline(signal, limit);
    const startedAt = performance.now();
    try {
      const response = await fetch(config.url, {
        method: config.method,
        headers: config.headers,
        redirect: config.followRedirects ? 'follow' : 'manual',
        signal: deadline.signal,
      });
      const expected = config.expectedStatus;
      const statusOk = expected
        ? expected.includes(response.status)
        : response.status >= 200 && response.status < 300;
      if (!statusOk) {
        await response.body?.cancel();
        return fail(
          startedAt,
          `Expected status ${describeExpected(expected)}, got ${response.status}`,
        );
      }
      if (config.bodyContains !== undefined) {
        const text = response.body ? await readStart(response.body, MAX_BODY_BYTES) : '';
        if (!text.includes(config.bodyContains)) {
          return fail(
            startedAt,
            `Status ${response.status}, but the body lacks "${config.bodyContains}"`,
          );
        }
      } else {
        await response.body?.cancel();
      }
      return pass(startedAt, `Status ${response.status}`);
    } catch (error) {
      if (!deadline.signal.aborted) return fail(startedAt, describeNetworkError(error));
      if (!isTimeout(deadline.signal.reason)) return fail(startedAt, 'Cancelled');
      return fail(startedAt, `Timed out after ${limit} ms`);
    } finally {
      deadline.release();
    }
  },
});
