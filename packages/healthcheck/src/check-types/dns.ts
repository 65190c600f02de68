import { Resolver } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { defineHealthCheckType } from '../check-type.ts';
import { withDeadline } from '../deadline.ts';
import { fail, failure, pass } from './outcome.ts';
import { configTimeoutMs, effectiveTimeout } from './timeout.ts';

const dnsRecordTypes = ['A', 'AAAA', 'CNAME', 'MX', 'TXT'] as const;
type DnsRecordType = (typeof dnsRecordTypes)[number];

const hostName = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?\.?$/, 'Must be a domain name');

const ipAddress = z
  .string()
  .trim()
  .refine((value) => ipaddr.isValid(value.replace(/^\[(.*)\]$/, '$1')), 'Must be an IP address');

export const DnsCheckConfigSchema = z.object({
  /** The name asked about. */
  name: hostName,
  recordType: z.enum(dnsRecordTypes).default('A'),
  /**
   * Values the answer must hold: addresses for A/AAAA, names for CNAME, the exchange (or
   * `priority exchange`) for MX, the text for TXT. Without them any answer with a record passes.
   */
  expected: z.array(z.string().trim().min(1).max(1_000)).min(1).max(50).optional(),
  /** `any`: one expected value is enough; `all`: every expected value must be answered. */
  match: z.enum(['any', 'all']).default('any'),
  /** The DNS server asked, judged by the target policy; default: the server's own resolvers. */
  resolver: z
    .object({ address: ipAddress, port: z.number().int().min(1).max(65_535).default(53) })
    .strict()
    .optional(),
  timeoutMs: configTimeoutMs,
});
export type DnsCheckConfig = z.infer<typeof DnsCheckConfigSchema>;

const withoutFinalDot = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** A value as answers and expectations are compared: addresses in one form, names without case. */
function comparable(recordType: DnsRecordType, value: string): string {
  if (recordType === 'A' || recordType === 'AAAA') {
    return ipaddr.isValid(value) ? ipaddr.process(value).toNormalizedString() : value;
  }
  if (recordType === 'TXT') return value;
  return withoutFinalDot(value);
}

/** Each answered record as the values it may be expected by (an MX by exchange or with priority). */
async function query(resolver: Resolver, name: string, type: DnsRecordType): Promise<string[][]> {
  switch (type) {
    case 'A':
      return (await resolver.resolve4(name)).map((address) => [address]);
    case 'AAAA':
      return (await resolver.resolve6(name)).map((address) => [address]);
    case 'CNAME':
      return (await resolver.resolveCname(name)).map((target) => [target]);
    case 'MX':
      return (await resolver.resolveMx(name)).map(({ exchange, priority }) => [
        exchange,
        `${priority} ${withoutFinalDot(exchange)}`,
      ]);
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((chunks) => [chunks.join('')]);
  }
}

const resolverServer = (address: string, port: number) =>
  address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;

/** How the answer measures up to the expected values; undefined when it passes. */
function unmetExpectation(
  config: Pick<DnsCheckConfig, 'recordType' | 'expected' | 'match'>,
  records: readonly string[][],
): string | undefined {
  if (records.length === 0) return 'No records';
  if (!config.expected) return undefined;
  const answered = new Set(records.flat().map((value) => comparable(config.recordType, value)));
  const found = config.expected.filter((value) =>
    answered.has(comparable(config.recordType, value)),
  );
  const met = config.match === 'all' ? found.length === config.expected.length : found.length > 0;
  if (met) return undefined;
  const wanted = config.expected.map((value) => JSON.stringify(value)).join(', ');
  return `Expected ${config.match === 'all' ? 'all' : 'any'} of ${wanted}`;
}

export const dnsCheckType = defineHealthCheckType({
  id: 'dns',
  displayName: 'DNS',
  description:
    'Resolves a name (A, AAAA, CNAME, MX or TXT), optionally at a given DNS server, and checks the answer holds the expected values.',
  config: DnsCheckConfigSchema,
  targets: (config) =>
    config.resolver ? [{ path: 'resolver.address', host: config.resolver.address }] : [],
  async run(config, { signal, timeoutMs, targets }) {
    const limit = effectiveTimeout(timeoutMs, config.timeoutMs);
    const deadline = withDeadline(signal, limit);
    const resolver = new Resolver({ timeout: limit, tries: 1 });
    const cancel = () => resolver.cancel();
    deadline.signal.addEventListener('abort', cancel, { once: true });
    const startedAt = performance.now();
    const asked = `${config.recordType} ${config.name}`;
    try {
      if (config.resolver) {
        // The server asked is the address the policy judged, in the form it judged it.
        const vetted = await targets.vet(config.resolver.address, deadline.signal);
        resolver.setServers([resolverServer(vetted.addresses[0]!.address, config.resolver.port)]);
      }
      const records = await query(resolver, config.name, config.recordType);
      deadline.signal.throwIfAborted();
      const shown = records.map((values) => values[0]).join(', ');
      const unmet = unmetExpectation(config, records);
      if (unmet) return fail(startedAt, `${asked}: ${unmet}, got ${shown || 'nothing'}`);
      return pass(startedAt, `${asked}: ${shown}`);
    } catch (error) {
      return failure(
        startedAt,
        error,
        deadline.signal,
        `Timed out after ${limit} ms asking ${asked}`,
      );
    } finally {
      deadline.signal.removeEventListener('abort', cancel);
      deadline.release();
    }
  },
});
