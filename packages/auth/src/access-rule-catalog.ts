import type { AccessRule } from '@checkline/core/contract';
import { createExtensionPoint } from '@checkline/core';

/**
 * Every access rule the mounted plugins declare: what `getAccessRules` lists, what roles may hold
 * and what the `admin` role holds.
 */
export class AccessRuleCatalog {
  readonly #rules = new Map<string, AccessRule>();
  #ids: readonly string[] = [];

  constructor(rules: readonly AccessRule[] = []) {
    this.add(rules);
  }

  add(rules: readonly AccessRule[]): void {
    for (const rule of rules) {
      if (this.#rules.has(rule.id)) throw new Error(`Access rule ${rule.id} is declared twice`);
      this.#rules.set(rule.id, rule);
    }
    this.#ids = [...this.#rules.keys()].sort();
  }

  has(id: string): boolean {
    return this.#rules.has(id);
  }

  /** Every rule id, sorted. */
  ids(): readonly string[] {
    return this.#ids;
  }

  list(): AccessRule[] {
    return this.#ids.map((id) => this.#rules.get(id)!);
  }
}

export interface AccessRuleRegistrar {
  /** Rules created at run time (one per notification strategy, say); ids start with the caller's plugin id. */
  register(rules: readonly AccessRule[]): void;
}

/** Where plugins declare access rules they create while registering, beyond their static ones. */
export const accessRulesExtensionPoint =
  createExtensionPoint<AccessRuleRegistrar>('auth.access-rules');
