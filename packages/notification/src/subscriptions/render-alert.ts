import type { AlertFacts } from '@checkline/notification-node';
import type { SubscriptionMessage } from './messages.ts';
import { renderHealth } from './render-health.ts';
import { renderIncident } from './render-incident.ts';
import { renderMaintenance } from './render-maintenance.ts';

/** The title, Markdown body, importance and link of an alert, from its facts (one renderer per kind). */
export function renderAlert(facts: AlertFacts): SubscriptionMessage {
  switch (facts.kind) {
    case 'healthcheck.status_changed':
      return { ...renderHealth(facts), facts };
    case 'incident.created':
    case 'incident.updated':
    case 'incident.resolved':
      return { ...renderIncident(facts), facts };
    case 'maintenance.started':
    case 'maintenance.ended':
      return { ...renderMaintenance(facts), facts };
  }
}
