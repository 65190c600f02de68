import { z } from 'zod';

/*
 * The structured facts of a monitoring alert: what the rendered title and body say, as typed
 * values, for receivers that act on them. The webhook payload carries them under its `version`:
 * a field that changes meaning or goes away needs a new payload version; adding one does not.
 */

const instant = z.iso.datetime().describe('ISO 8601, UTC.');

export const SystemFactSchema = z.object({ id: z.string(), name: z.string() });
export type SystemFact = z.infer<typeof SystemFactSchema>;

export const HealthStatusFactSchema = z.enum([
  'healthy',
  'degraded',
  'unhealthy',
  'unknown',
  'maintenance',
]);

/** One check of the system and its latest result when the status changed. */
export const CheckFactSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The check type: `http`, `tcp`, `heartbeat`, ... */
  type: z.string(),
  /** The result's outcome: `fail` or `warn` (a degraded check). */
  status: z.enum(['pass', 'warn', 'fail']),
  /** The result's own words, for example `Expected status 2xx, got 500`. */
  message: z.string().nullable(),
  latencyMs: z.number().nullable(),
  checkedAt: instant,
});
export type CheckFact = z.infer<typeof CheckFactSchema>;

export const HealthFactsSchema = z.object({
  kind: z.literal('healthcheck.status_changed'),
  system: SystemFactSchema,
  previous: HealthStatusFactSchema,
  current: HealthStatusFactSchema,
  changedAt: instant,
  /** When the previous status began; null when it was never recorded. */
  previousSince: instant.nullable(),
  /** How long the previous status lasted (the outage length, on a recovery). */
  previousDurationMs: z.number().int().nonnegative().nullable(),
  /** The checks whose latest result is not healthy, worst first (none on a recovery). */
  failingChecks: z.array(CheckFactSchema),
});
export type HealthFacts = z.infer<typeof HealthFactsSchema>;

export const IncidentFactsSchema = z.object({
  kind: z.enum(['incident.created', 'incident.updated', 'incident.resolved']),
  incident: z.object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    status: z.enum(['investigating', 'identified', 'monitoring', 'resolved']),
    severity: z.enum(['minor', 'major', 'critical']),
    /** The newest update of the timeline that carries a message. */
    latestUpdate: z.object({ message: z.string(), at: instant }).nullable(),
  }),
  /** The affected systems the recipient may read. */
  systems: z.array(SystemFactSchema),
});
export type IncidentFacts = z.infer<typeof IncidentFactsSchema>;

export const MaintenanceFactsSchema = z.object({
  kind: z.enum(['maintenance.started', 'maintenance.ended']),
  /** The planned period; null in events published before it was carried. */
  window: z.object({
    id: z.string(),
    title: z.string(),
    startAt: instant.nullable(),
    endAt: instant.nullable(),
  }),
  /** The systems of the window the recipient may read. */
  systems: z.array(SystemFactSchema),
});
export type MaintenanceFacts = z.infer<typeof MaintenanceFactsSchema>;

export const AlertFactsSchema = z.discriminatedUnion('kind', [
  HealthFactsSchema,
  IncidentFactsSchema,
  MaintenanceFactsSchema,
]);
export type AlertFacts = z.infer<typeof AlertFactsSchema>;
export type AlertKind = AlertFacts['kind'];
