import type { EventType } from '@checkline/core';
import type { AlertFacts, SystemFact } from './alert-facts.ts';
import type { NotificationSource, SubscriptionKind, SystemDirectory } from './source.ts';

/** One stage of a lifecycle: the source's id, the event, and the facts' kind it produces. */
export interface LifecycleStage<TPayload, TKind extends string> {
  id: string;
  event: EventType<TPayload>;
  kind: TKind;
}

/** What every stage of one lifecycle shares. */
export interface LifecycleSourceOptions<TPayload, TKind extends string> {
  subscriptionKind: SubscriptionKind;
  readRule: string;
  directory: SystemDirectory;
  /** The facts of a stage's event, about the systems its payload names that still exist. */
  facts(kind: TKind, payload: TPayload, systems: readonly SystemFact[]): AlertFacts;
}

/**
 * One notification source per stage of a thing's life (an incident created, updated, resolved; a
 * window started, ended) whose payloads name their systems in `systemIds`: the stages differ only
 * in their event and the kind of facts they produce.
 */
export function lifecycleSources<
  TPayload extends { systemIds: readonly string[] },
  TKind extends string,
>(
  options: LifecycleSourceOptions<TPayload, TKind>,
  stages: readonly LifecycleStage<TPayload, TKind>[],
): NotificationSource<TPayload>[] {
  return stages.map(({ id, event, kind }) => ({
    id,
    event,
    subscriptionKind: options.subscriptionKind,
    readRule: options.readRule,
    directory: options.directory,
    systemIds: (payload) => payload.systemIds,
    facts: (_context, payload, systems) => options.facts(kind, payload, systems),
  }));
}
