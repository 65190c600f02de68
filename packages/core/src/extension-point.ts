/** A typed handle by which one plugin offers a way for others to extend it. */
export interface ExtensionPoint<T> {
  readonly id: string;
  /** Type carrier only; never set. */
  readonly T?: T;
}

export function createExtensionPoint<T>(id: string): ExtensionPoint<T> {
  return { id };
}

export type StartupPhase = 'register' | 'init' | 'ready';

/**
 * Made by the owning plugin: builds the extension point's API for a calling plugin, so the API
 * knows who registers (ids are qualified by the caller's own plugin id).
 */
export type ExtensionPointFactory<T> = (callerPluginId: string) => T;

/** Drives the three start-up phases and hands extension points between plugins. */
export class ExtensionPoints {
  #phase: StartupPhase = 'register';
  readonly #factories = new Map<
    string,
    { owner: string; factory: ExtensionPointFactory<unknown> }
  >();

  get phase(): StartupPhase {
    return this.#phase;
  }

  provide<T>(point: ExtensionPoint<T>, ownerPluginId: string, factory: ExtensionPointFactory<T>) {
    this.#assertPhase('register', `provide extension point ${point.id}`);
    const existing = this.#factories.get(point.id);
    if (existing) {
      throw new Error(`Extension point ${point.id} is already provided by ${existing.owner}`);
    }
    this.#factories.set(point.id, {
      owner: ownerPluginId,
      factory: factory,
    });
  }

  /** Whether some plugin provides `point` (plugins that also run without its owner ask first). */
  isProvided(point: ExtensionPoint<unknown>): boolean {
    return this.#factories.has(point.id);
  }

  /** The API of `point` for `callerPluginId`; only while plugins register. */
  get<T>(point: ExtensionPoint<T>, callerPluginId: string): T {
    this.#assertPhase('register', `use extension point ${point.id}`);
    const entry = this.#factories.get(point.id);
    if (!entry) throw new Error(`Extension point ${point.id} is not provided by any plugin`);
    return entry.factory(callerPluginId) as T;
  }

  advance(to: 'init' | 'ready') {
    const order: StartupPhase[] = ['register', 'init', 'ready'];
    if (order.indexOf(to) !== order.indexOf(this.#phase) + 1) {
      throw new Error(`Cannot move from ${this.#phase} to ${to}`);
    }
    this.#phase = to;
  }

  #assertPhase(expected: StartupPhase, what: string) {
    if (this.#phase !== expected) throw new Error(`Cannot ${what} in the ${this.#phase} phase`);
  }
}

/**
 * The store behind a typical extension point: items with ids qualified as
 * `{ownerPluginId}.{id}`, duplicates refused, and no registration once frozen.
 */
export class QualifiedRegistry<T extends { id: string }> {
  readonly #items = new Map<string, T & { qualifiedId: string; ownerPluginId: string }>();
  #frozen = false;

  constructor(readonly name: string) {}

  register(ownerPluginId: string, item: T) {
    if (this.#frozen) {
      throw new Error(`${this.name}: ${ownerPluginId}.${item.id} registered after start-up`);
    }
    if (!/^[a-z][a-z0-9-]*$/.test(item.id)) {
      throw new Error(`${this.name}: invalid id "${item.id}" (lowercase letters, digits, dashes)`);
    }
    const qualifiedId = `${ownerPluginId}.${item.id}`;
    if (this.#items.has(qualifiedId))
      throw new Error(`${this.name}: ${qualifiedId} is already registered`);
    const entry = { ...item, qualifiedId, ownerPluginId };
    this.#items.set(qualifiedId, entry);
    return entry;
  }

  get(qualifiedId: string) {
    return this.#items.get(qualifiedId);
  }

  list() {
    return [...this.#items.values()];
  }

  freeze() {
    this.#frozen = true;
  }
}
