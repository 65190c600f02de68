import type { AlertFacts } from '@checkline/notification-node';

/**
 * What an alert is about, and whether these facts open it (a system turned unhealthy, an incident
 * is open) or end it (any other status, the incident resolved). Maintenance opens nothing.
 */
export function alertSubject(facts: AlertFacts): { subject: string; opens: boolean } | undefined {
  switch (facts.kind) {
    case 'healthcheck.status_changed':
      return { subject: `health:${facts.system.id}`, opens: facts.current === 'unhealthy' };
    case 'incident.created':
    case 'incident.updated':
    case 'incident.resolved':
      return {
        subject: `incident:${facts.incident.id}`,
        opens: facts.kind !== 'incident.resolved' && facts.incident.status !== 'resolved',
      };
    default:
      return undefined;
  }
}
