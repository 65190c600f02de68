import { z } from 'zod';
import { SlugSchema } from './schemas.ts';

/** What visitors see of a system or group: never the internal status words. */
export const publicStatuses = [
  'operational',
  'degraded',
  'outage',
  'maintenance',
  'unknown',
] as const;
export const PublicStatusSchema = z.enum(publicStatuses);
PublicStatusSchema.register(z.globalRegistry, { id: 'StatusPagePublicStatus' });
export type PublicStatus = z.infer<typeof PublicStatusSchema>;

const instant = z.iso.datetime();

/** Daily uptime, compact: one figure per UTC day from `firstDay` on, oldest first. */
export const PublicUptimeSchema = z.object({
  firstDay: z.iso.date().nullable(),
  /** Percent passing, rounded to 2 decimals; null for a day without a scheduled run. */
  days: z.array(z.number().nullable()),
});

export const PublicItemSchema = z.object({
  /** The display name the page chose. */
  name: z.string(),
  kind: z.enum(['system', 'group']),
  status: PublicStatusSchema,
  /** The last 90 UTC days; a group's days are the mean of its shown members'. */
  uptime: PublicUptimeSchema,
});

export const PublicIncidentSchema = z.object({
  /** A reference stable for the page (not the incident's id). */
  ref: z.string(),
  title: z.string(),
  severity: z.enum(['minor', 'major', 'critical']),
  status: z.enum(['investigating', 'identified', 'monitoring', 'resolved']),
  startedAt: instant,
  resolvedAt: instant.nullable(),
  /** The timeline's entries that carry a message or a status, oldest first. */
  updates: z.array(z.object({ status: z.string(), message: z.string().nullable(), at: instant })),
});

export const PublicMaintenanceSchema = z.object({
  ref: z.string(),
  title: z.string(),
  description: z.string(),
  startAt: instant,
  endAt: instant,
  active: z.boolean(),
});

export const PublicPageSchema = z.object({
  slug: SlugSchema,
  title: z.string(),
  description: z.string(),
  logoUrl: z.string().nullable(),
  brandColor: z.string().nullable(),
  /** The worst status of every item. */
  status: PublicStatusSchema,
  sections: z.array(z.object({ title: z.string(), items: z.array(PublicItemSchema) })),
  /** Unresolved incidents affecting a published system, newest first. */
  activeIncidents: z.array(PublicIncidentSchema),
  /** Incidents resolved in the last 30 days, newest first (the feed's history). */
  recentIncidents: z.array(PublicIncidentSchema),
  /** Active and upcoming maintenance covering a published system, soonest first. */
  maintenance: z.array(PublicMaintenanceSchema),
  generatedAt: instant,
});
PublicPageSchema.register(z.globalRegistry, { id: 'StatusPagePublic' });
export type PublicPage = z.infer<typeof PublicPageSchema>;
export type PublicIncident = z.infer<typeof PublicIncidentSchema>;
export type PublicMaintenance = z.infer<typeof PublicMaintenanceSchema>;

export const GetPublicPageInputSchema = z.object({ slug: SlugSchema });
