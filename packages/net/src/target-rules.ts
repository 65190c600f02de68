import ipaddr from 'ipaddr.js';
import type { Address } from './address.ts';
import { normalizeHost } from './address.ts';

/** One entry of an allow or deny list: an address range, or a host name. */
export type TargetRule =
  | { kind: 'range'; entry: string; range: [Address, number] }
  /** `*.example.com` matches every name below example.com, not example.com itself. */
  | { kind: 'name'; entry: string; name: string; subdomains: boolean };

const label = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const hostName = new RegExp(`^(?:\\*\\.)?${label}(?:\\.${label})*$`);

/** Mapped IPv6 ranges (`::ffff:10.0.0.0/104`) become IPv4 ranges, as addresses are judged so. */
function rangeOf(text: string): [Address, number] | undefined {
  if (!ipaddr.isValidCIDR(text)) return undefined;
  const [base, bits] = ipaddr.parseCIDR(text);
  if (base.kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(text.split('/')[0]!)) {
    return undefined;
  }
  if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(base as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [base, bits];
}

function addressOf(text: string): [Address, number] | undefined {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return [ipaddr.IPv4.parse(bare), 32];
  if (!ipaddr.IPv6.isValid(bare)) return undefined;
  const address = ipaddr.process(bare);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/**
 * An entry (`10.0.0.0/8`, `192.168.1.5`, `::1`, `status.example.com`, `*.corp.example`), or
 * undefined when it is none of these. IPv4 must be written as four decimal parts.
 */
export function parseTargetRule(entry: string): TargetRule | undefined {
  const text = entry.trim();
  const range = text.includes('/') ? rangeOf(text) : addressOf(text);
  if (range) return { kind: 'range', entry: text, range };
  const name = normalizeHost(text);
  // A name ending in a number (`300.1.1.1`, `0x7f.1`) is an address to URL parsers, never a name.
  const endsInNumber = /(^|\.)(\d+|0x[\da-f]*)$/.test(name);
  if (name.length > 253 || !hostName.test(name) || endsInNumber) return undefined;
  const subdomains = name.startsWith('*.');
  return { kind: 'name', entry: text, name: subdomains ? name.slice(2) : name, subdomains };
}

/** A comma-separated list (or its entries) as rules, and the entries that are not valid. */
export function parseTargetList(list: string | readonly string[]) {
  const entries = typeof list === 'string' ? list.split(',') : list;
  const rules: TargetRule[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    if (entry.trim() === '') continue;
    const rule = parseTargetRule(entry);
    if (rule) rules.push(rule);
    else invalid.push(entry.trim());
  }
  return { rules, invalid };
}

/** The rules of a list; throws naming every entry that is not valid. */
export function targetRules(list: string | readonly string[], listName: string): TargetRule[] {
  const { rules, invalid } = parseTargetList(list);
  if (invalid.length > 0) {
    throw new Error(`${listName}: not an address, range or host name: ${invalid.join(', ')}`);
  }
  return rules;
}

export function ruleMatchesName(rule: TargetRule, host: string): boolean {
  if (rule.kind !== 'name') return false;
  return rule.subdomains ? host.endsWith(`.${rule.name}`) : host === rule.name;
}

/** The prefix length by which `range` covers `address`, or undefined when it does not. */
export function rangeCovers([base, bits]: [Address, number], address: Address): number | undefined {
  if (base.kind() !== address.kind()) return undefined;
  return address.match(base, bits) ? bits : undefined;
}

export const ruleCovers = (rule: TargetRule, address: Address) =>
  rule.kind === 'range' ? rangeCovers(rule.range, address) : undefined;
