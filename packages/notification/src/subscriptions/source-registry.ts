import type { NotificationSource, SystemDirectory } from '@checkline/notification-node';
import { QualifiedRegistry } from '@checkline/core';

/**
 * The notification sources monitoring plugins registered, and the one system directory they
 * name: subscriptions are checked against it, so every source must bring the same one.
 */
export class NotificationSources {
  readonly #registry = new QualifiedRegistry<NotificationSource<unknown>>('notification sources');
  #directory: SystemDirectory | undefined;

  register<TPayload>(ownerPluginId: string, source: NotificationSource<TPayload>) {
    if (this.#directory && this.#directory !== source.directory) {
      throw new Error(
        `notification source ${ownerPluginId}.${source.id} names another system directory than the sources before it`,
      );
    }
    this.#registry.register(ownerPluginId, source);
    this.#directory = source.directory;
  }

  list() {
    return this.#registry.list();
  }

  /** The systems subscriptions name; undefined while no source is registered. */
  directory(): SystemDirectory | undefined {
    return this.#directory;
  }

  freeze() {
    this.#registry.freeze();
  }
}
