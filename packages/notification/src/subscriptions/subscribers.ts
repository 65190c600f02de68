import type { EventBus, RequestContext } from '@checkline/core';
import type { AlertFacts, NotificationSource } from '@checkline/notification-node';
import type { NotificationState } from '../state.ts';
import { notifySubscribers } from './notify.ts';
import { renderAlert } from './render-alert.ts';

/** The facts as an audience sees them: only the concerned systems it may read. */
function factsFor(facts: AlertFacts, systemIds: readonly string[]): AlertFacts {
  if (facts.kind === 'healthcheck.status_changed') return facts;
  return { ...facts, systems: facts.systems.filter((system) => systemIds.includes(system.id)) };
}

/**
 * Subscribes the notification plugin to a source's event: each one becomes notifications for
 * its subscribers. Call in the register phase; `service` is asked for the service context when
 * an event arrives (it exists from init on).
 */
export function subscribeToSource<TPayload>(
  events: EventBus,
  state: NotificationState,
  service: () => RequestContext,
  source: NotificationSource<TPayload>,
) {
  events.subscribe(source.event, (payload: TPayload, { eventId }) =>
    notifySubscribers(state, service(), {
      eventId,
      kind: source.subscriptionKind,
      sourceRule: source.readRule,
      directory: source.directory,
      systemIds: source.systemIds(payload),
      facts: (context, systems) => source.facts(context, payload, systems),
      message: (facts, systemIds) => renderAlert(factsFor(facts, systemIds)),
      ...(source.suppression && {
        suppression: (context: RequestContext) => source.suppression!(context, payload),
      }),
    }),
  );
}
