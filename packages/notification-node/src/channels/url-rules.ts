import { z } from 'zod';
import type { DeliveryResult } from '../strategies/strategy.ts';
import { refusedServiceUrl } from './host-patterns.ts';

const hostPattern = z
  .string()
  .regex(/^(\*|(\*\.)?[a-z0-9.-]+(:\d+)?)$/i, 'Expected a host, *.domain, or * for any host');

/**
 * The administrator's rules for URLs users give a channel (webhooks, push servers): fields
 * `webhookHosts` (patterns, `defaults` unless set) and `requireHttps` (default true), to spread
 * into a strategy's config schema and pass to `refusedServiceUrl`.
 */
export function serviceUrlRules(defaults: readonly string[]) {
  return {
    webhookHosts: z
      .array(hostPattern)
      .min(1)
      .default([...defaults])
      .describe('Hosts a user-given URL may point at: exact host, *.domain, or * for any host.'),
    requireHttps: z
      .boolean()
      .default(true)
      .describe('Refuse URLs that are not https (switch off for a local test service only).'),
  };
}

/**
 * The permanent failure of a send to `url` when the administrator's rules (`serviceUrlRules`
 * fields of the strategy's config) refuse it, named after `what` ("Teams webhook"); undefined
 * when the URL may be used.
 */
export function refusedByUrlRules(
  url: string,
  rules: { webhookHosts: readonly string[]; requireHttps: boolean },
  what: string,
): DeliveryResult | undefined {
  const refused = refusedServiceUrl(url, {
    hosts: rules.webhookHosts,
    requireHttps: rules.requireHttps,
  });
  return refused
    ? { success: false, permanent: true, error: `${what} refused: ${refused}` }
    : undefined;
}
