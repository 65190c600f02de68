import { QualifiedRegistry } from '@checkline/core';
import type { AuthStrategy } from './strategy.ts';

/** The registered strategies, by the id that is their path segment. */
export class StrategyRegistry {
  readonly #registry = new QualifiedRegistry<AuthStrategy>('auth strategies');
  readonly #byId = new Map<string, AuthStrategy>();

  register(ownerPluginId: string, strategy: AuthStrategy): void {
    const taken = this.#registry.list().find((entry) => entry.id === strategy.id);
    if (taken) {
      throw new Error(
        `auth strategies: ${ownerPluginId}.${strategy.id} clashes with ${taken.qualifiedId}; the id is a path segment`,
      );
    }
    this.#registry.register(ownerPluginId, strategy);
    this.#byId.set(strategy.id, strategy);
  }

  get(id: string): AuthStrategy | undefined {
    return this.#byId.get(id);
  }

  list() {
    return this.#registry.list();
  }

  freeze(): void {
    this.#registry.freeze();
  }
}
