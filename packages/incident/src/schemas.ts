import { pageInput, pageOf, principalKinds } from '@checkline/core/contract';
import { z } from 'zod';

export const severities = ['minor', 'major', 'critical'] as const;
export const SeveritySchema = z.enum(severities);
SeveritySchema.register(z.globalRegistry, { id: 'Severity' });
export type Severity = z.infer<typeof SeveritySchema>;

/** New incidents start `investigating`; `resolved` closes one, any other status reopens it. */
export const incidentStatuses = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const IncidentStatusSchema = z.enum(incidentStatuses);
IncidentStatusSchema.register(z.globalRegistry, { id: 'IncidentStatus' });
export type IncidentStatus = z.infer<typeof IncidentStatusSchema>;

const id = z.uuid();
const title = z.string().trim().min(1, 'Title must not be empty').max(200);
const description = z.string().max(5_000);
const systemIds = z.array(id).max(100);

/** One entry of an incident's timeline: a status change, a message, or both. */
export const IncidentUpdateSchema = z.object({
  id,
  status: IncidentStatusSchema,
  message: z.string().nullable(),
  /** The principal who wrote it: a user or application id, or a plugin id for `service`. */
  authorId: z.string().nullable(),
  authorKind: z.enum(principalKinds),
  createdAt: z.iso.datetime(),
});
IncidentUpdateSchema.register(z.globalRegistry, { id: 'IncidentUpdate' });
export type IncidentUpdate = z.infer<typeof IncidentUpdateSchema>;

export const IncidentSchema = z.object({
  id,
  title: z.string(),
  description: z.string(),
  severity: SeveritySchema,
  status: IncidentStatusSchema,
  /** Catalog systems affected, sorted. */
  systemIds: z.array(z.uuid()),
  /** Set when the status becomes `resolved`, cleared when the incident is reopened. */
  resolvedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
IncidentSchema.register(z.globalRegistry, {
  id: 'Incident',
  examples: [
    {
      id: '0b6c3f2e-8d1a-4e7b-9f3c-5a2d1e0f4b6c',
      title: 'Checkout errors',
      description: 'Some card payments fail.',
      severity: 'major',
      status: 'investigating',
      systemIds: ['6f1c2b9e-3a4d-4e5f-8a7b-9c0d1e2f3a4b'],
      resolvedAt: null,
      createdAt: '2026-01-05T10:00:00.000Z',
      updatedAt: '2026-01-05T10:00:00.000Z',
    },
  ],
});
export type Incident = z.infer<typeof IncidentSchema>;

/** An incident with its timeline, oldest entry first. */
export const IncidentDetailSchema = IncidentSchema.extend({
  timeline: z.array(IncidentUpdateSchema),
});
IncidentDetailSchema.register(z.globalRegistry, { id: 'IncidentDetail' });
export type IncidentDetail = z.infer<typeof IncidentDetailSchema>;

export const GetIncidentsInputSchema = z.object({
  /** Only incidents affecting this system. */
  systemId: id.optional(),
  ...pageInput,
});
export type GetIncidentsInput = z.infer<typeof GetIncidentsInputSchema>;

export const ListIncidentsInputSchema = z.object({
  /** Also resolved incidents. Default false. */
  includeResolved: z.boolean().default(false),
  systemId: id.optional(),
  ...pageInput,
});
export type ListIncidentsInput = z.infer<typeof ListIncidentsInputSchema>;

export const IncidentListSchema = pageOf('incidents', IncidentSchema);
export type IncidentList = z.infer<typeof IncidentListSchema>;

export const CreateIncidentInputSchema = z.object({
  title,
  severity: SeveritySchema,
  description: description.optional(),
  systemIds: systemIds.optional(),
});
export type CreateIncidentInput = z.infer<typeof CreateIncidentInputSchema>;

export const UpdateIncidentInputSchema = z.object({
  id,
  status: IncidentStatusSchema.optional(),
  title: title.optional(),
  severity: SeveritySchema.optional(),
  description: description.optional(),
  systemIds: systemIds.optional(),
  /** Adds a timeline entry even when the status stays the same. */
  message: z.string().trim().min(1, 'Message must not be empty').max(5_000).optional(),
});
export type UpdateIncidentInput = z.infer<typeof UpdateIncidentInputSchema>;

export const IdInputSchema = z.object({ id });
export const DeletedSchema = z.object({ id, deleted: z.literal(true) });
