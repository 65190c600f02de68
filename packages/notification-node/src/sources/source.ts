import type { EventType, Principal, RequestContext } from '@checkline/core';
import { createExtensionPoint } from '@checkline/core';
import type { AlertFacts, SystemFact } from './alert-facts.ts';

/** The kinds of event a subscription may ask for. */
export type SubscriptionKind = 'health' | 'incident' | 'maintenance';

/**
 * The systems that subscriptions name, and who may read them: the directory of the plugin that
 * owns systems (the catalog provides one). Every source of a server names the same directory.
 */
export interface SystemDirectory {
  /** The systems among `systemIds` that still exist, in the order given. */
  systemsNamed(context: RequestContext, systemIds: readonly string[]): Promise<SystemFact[]>;
  /** The groups holding each of `systemIds`. */
  groupsOfSystems(
    context: RequestContext,
    systemIds: readonly string[],
  ): Promise<Map<string, Set<string>>>;
  /** Those of `systemIds` that `principal` may read (its rules and team grants). */
  readableBy(
    context: RequestContext,
    principal: Principal,
    systemIds: readonly string[],
  ): Promise<ReadonlySet<string>>;
  /** Throws NOT_FOUND unless the system exists and the caller of `context` may read it. */
  assertSystemReadable(context: RequestContext, systemId: string): Promise<void>;
  /** Throws NOT_FOUND unless the group exists and the caller of `context` may read it. */
  assertGroupReadable(context: RequestContext, groupId: string): Promise<void>;
}

/**
 * One kind of event that subscriptions turn into alerts: which event, which subscription kind
 * hears it, which systems it concerns, and the structured facts the platform renders.
 */
export interface NotificationSource<TPayload> {
  /** Lowercase letters, digits, dashes; qualified as `{ownerPluginId}.{id}`. */
  id: string;
  event: EventType<TPayload>;
  subscriptionKind: SubscriptionKind;
  /** The read rule of the source plugin a subscriber must hold (`incident.incident.read`). */
  readRule: string;
  directory: SystemDirectory;
  systemIds(payload: TPayload): readonly string[];
  /**
   * The facts of the event, about `systems` (the concerned ones that still exist); the platform
   * narrows their `systems` to what each audience may read. Runs in the subscriber's transaction.
   */
  facts(
    context: RequestContext,
    payload: TPayload,
    systems: readonly SystemFact[],
  ): AlertFacts | Promise<AlertFacts>;
  /** Why the alert is held back (a maintenance window), asked once the recipients are known. */
  suppression?(context: RequestContext, payload: TPayload): Promise<string | undefined>;
}

/** What a plugin gets from `notificationSourceExtensionPoint`. */
export interface NotificationSourceRegistrar {
  /** Only during the register phase. */
  register<TPayload>(source: NotificationSource<TPayload>): void;
}

/**
 * Provided by the notification plugin; monitoring plugins register their sources in their
 * register phase (after the notification plugin's), when it is provided.
 */
export const notificationSourceExtensionPoint =
  createExtensionPoint<NotificationSourceRegistrar>('notification.sources');
