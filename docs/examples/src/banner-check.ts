import type { AnyPlugin } from '@checkline/core';
import { definePlugin } from '@checkline/core';
import {
  checkHost,
  configTimeoutMs,
  defineHealthCheckType,
  fail,
  healthCheckTypeExtensionPoint,
  pass,
  runAgainstHost,
  type VettedTarget,
} from '@checkline/healthcheck/check-kit';
import { connect } from 'node:net';
import { z } from 'zod';

const BannerConfigSchema = z.object({
  host: checkHost,
  port: z.number().int().min(1).max(65_535),
  /** The greeting must start with this (`SSH-2.0`, `220 `). */
  expect: z.string().min(1).max(200),
  timeoutMs: configTimeoutMs,
});

/** Connects, reads the service's greeting and passes when it starts as expected. */
export const bannerCheckType = defineHealthCheckType({
  id: 'banner',
  displayName: 'Banner',
  description: 'Reads the greeting a TCP service sends first (SSH, SMTP, FTP).',
  config: BannerConfigSchema,
  // The host the target policy judges on save and before every run.
  targets: (config) => [{ path: 'host', host: config.host }],
  run(config, options) {
    // Vets the host right before connecting, within the run's deadline; a throw (refused
    // target, network error, timeout) becomes the failed outcome.
    return runAgainstHost(
      config,
      options,
      (limit) => `Timed out after ${limit} ms`,
      async (target, { signal, startedAt }) => {
        const banner = await firstLine(config.host, config.port, target.lookup, signal);
        return banner.startsWith(config.expect)
          ? pass(startedAt, `Greeted with ${banner}`)
          : fail(startedAt, `Unexpected greeting ${banner}`);
      },
    );
  },
});

function firstLine(
  host: string,
  port: number,
  lookup: VettedTarget['lookup'],
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, lookup, signal });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\n');
      if (end >= 0 || received.length > 1_000) {
        socket.destroy();
        resolve(received.slice(0, end >= 0 ? end : 1_000).trimEnd());
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('Closed before a greeting')));
  });
}

/** A plugin that only adds the check type: `{pluginId}.banner`, here `banner-check.banner`. */
export const bannerCheckPlugin: AnyPlugin = definePlugin({
  id: 'banner-check',
  dependsOn: ['healthcheck'], // it registers into healthcheck's extension point
  description: 'The banner health check.',
  contract: {},
  router: {},
  accessRules: [],
  register(api) {
    api.extensionPoints.get(healthCheckTypeExtensionPoint, api.pluginId).register(bannerCheckType);
  },
});
