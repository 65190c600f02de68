import type { LookupFunction } from 'node:net';
import type { Address } from './address.ts';
import {
  connectionAddress,
  literalAddress,
  normalizeHost,
  parseAddress,
  reachedAddresses,
} from './address.ts';
import type { BuiltInRefusalSet } from './built-in-refusals.ts';
import {
  isLocalhostName,
  localhostAddresses,
  metadataHostNames,
  refusalSets,
} from './built-in-refusals.ts';
import { pinnedLookup } from './pinned-lookup.ts';
import type { ResolvedAddress, Resolver } from './resolver.ts';
import { systemResolver } from './resolver.ts';
import { rangeCovers, ruleCovers, ruleMatchesName, targetRules } from './target-rules.ts';

export interface TargetPolicyOptions {
  /** Addresses, ranges and host names checks may reach beyond the defaults. Default none. */
  allow?: readonly string[];
  /** Addresses, ranges and host names checks may never reach. Default none. */
  deny?: readonly string[];
  /** How host names become addresses. Default: the system's resolver. */
  resolve?: Resolver;
  /** The addresses refused unless allowed. Default `local`, the health checks' set. */
  builtIn?: BuiltInRefusalSet;
  /**
   * The setting a refusal names as the way to lift it, or null to name none. Default
   * CHECK_TARGETS_ALLOW.
   */
  allowSetting?: string | null;
}

/** A target the policy accepts, with every address it was judged on. */
export interface VettedTarget {
  host: string;
  addresses: readonly ResolvedAddress[];
  /** Connect through this lookup: it answers only `addresses` (no second resolution). */
  lookup: LookupFunction;
}

export interface TargetPolicy {
  /**
   * Resolves `host` (unless it is an address) and judges every address; throws a
   * `TargetRefusedError` saying why when one of them is refused, DNS errors as they are.
   */
  vet(host: string, signal?: AbortSignal): Promise<VettedTarget>;
}

/** A target the policy refuses; its message is meant for the people who configured the check. */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
  constructor(reason: string) {
    super(`Target refused: ${reason}`);
  }
}

/** Operator entries beat built-in ones of the same length; a deny beats an allow. */
const Rank = { deny: 0, allow: 1, builtIn: 2 } as const;
type Rank = (typeof Rank)[keyof typeof Rank];

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The health-check target policy (docs/api.md, "Targets a check may reach"): link-local, metadata, unspecified and loopback addresses are refused
 * unless allowed; everything else (private ranges included) is allowed unless denied (`builtIn`
 * chooses a stricter or a looser set of refused ranges for other callers). The most
 * specific entry covering an address decides; on a tie a deny beats an allow, and both beat the
 * built-in refusals. A host-name entry is the most specific of all for that name.
 */
export function createTargetPolicy(options: TargetPolicyOptions = {}): TargetPolicy {
  const allow = targetRules(options.allow ?? [], 'CHECK_TARGETS_ALLOW');
  const deny = targetRules(options.deny ?? [], 'CHECK_TARGETS_DENY');
  const resolve = options.resolve ?? systemResolver;
  const builtIn = options.builtIn ?? 'local';
  const builtInRefusals = refusalSets[builtIn];
  const allowSetting =
    options.allowSetting === undefined ? 'CHECK_TARGETS_ALLOW' : options.allowSetting;
  const allowHint = allowSetting ? ` (${allowSetting} can allow it)` : '';

  /** The deciding entry's refusal of one address ("is ..."), or undefined when it is allowed. */
  function decide(address: Address): string | undefined {
    let best: { bits: number; rank: Rank; refusal: string | undefined } | undefined;
    const consider = (bits: number | undefined, rank: Rank, refusal?: string) => {
      if (bits === undefined) return;
      if (!best || bits > best.bits || (bits === best.bits && rank < best.rank)) {
        best = { bits, rank, refusal };
      }
    };
    for (const rule of deny) {
      consider(
        ruleCovers(rule, address),
        Rank.deny,
        `is denied by CHECK_TARGETS_DENY (${rule.entry})`,
      );
    }
    for (const rule of allow) consider(ruleCovers(rule, address), Rank.allow);
    for (const { range, what, final } of builtInRefusals) {
      const hint = final ? '' : allowHint;
      consider(rangeCovers(range, address), Rank.builtIn, `is ${what}${hint}`);
    }
    return best?.refusal;
  }

  /** Why `address` is refused, judged with every address a connection to it reaches. */
  function refusalOf(address: Address): string | undefined {
    for (const reached of reachedAddresses(address)) {
      const refusal = decide(reached);
      if (refusal) return reached === address ? refusal : `reaches ${reached}, which ${refusal}`;
    }
    return undefined;
  }

  function asResolved(address: Address): ResolvedAddress {
    const connected = connectionAddress(address);
    return { address: connected.toString(), family: connected.kind() === 'ipv4' ? 4 : 6 };
  }

  const vetted = (host: string, addresses: readonly ResolvedAddress[]): VettedTarget => ({
    host,
    addresses,
    lookup: pinnedLookup(addresses),
  });

  async function vetName(host: string, signal: AbortSignal | undefined): Promise<VettedTarget> {
    const denied = deny.find((rule) => ruleMatchesName(rule, host));
    if (denied) {
      throw new TargetRefusedError(`${host} is denied by CHECK_TARGETS_DENY (${denied.entry})`);
    }
    const allowedByName = allow.some((rule) => ruleMatchesName(rule, host));
    if (!allowedByName && metadataHostNames.has(host)) {
      const hint = builtIn === 'local' ? allowHint : '';
      throw new TargetRefusedError(`${host} is a cloud metadata host name${hint}`);
    }
    const addresses = isLocalhostName(host)
      ? [...localhostAddresses]
      : await abortable(resolve(host), signal);
    const judged: ResolvedAddress[] = [];
    for (const { address: text } of addresses) {
      const address = parseAddress(text);
      if (!address) {
        throw new TargetRefusedError(`${host} resolves to "${text}", which is no IP address`);
      }
      const refusal = allowedByName ? undefined : refusalOf(address);
      if (refusal) throw new TargetRefusedError(`${host} resolves to ${text}, which ${refusal}`);
      judged.push(asResolved(address));
    }
    if (judged.length === 0) {
      throw Object.assign(new Error(`No address for ${host}`), { code: 'ENOTFOUND' });
    }
    return vetted(host, judged);
  }

  return {
    async vet(rawHost, signal) {
      const host = normalizeHost(rawHost);
      const literal = literalAddress(host);
      if (!literal) return vetName(host, signal);
      const refusal = refusalOf(literal);
      if (refusal) throw new TargetRefusedError(`${host} ${refusal}`);
      return vetted(host, [asResolved(literal)]);
    },
  };
}
