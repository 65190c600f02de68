import { defineContract, mutation, query } from '@checkline/core/contract';
import { incidentAccess } from './access.ts';
import {
  CreateIncidentInputSchema,
  DeletedSchema,
  GetIncidentsInputSchema,
  IdInputSchema,
  IncidentDetailSchema,
  IncidentListSchema,
  IncidentPageSchema,
  ListIncidentsInputSchema,
  UpdateIncidentInputSchema,
} from './schemas.ts';

const read = { access: [incidentAccess.read] };
const manage = { access: [incidentAccess.manage] };

export const incidentContract = defineContract('incident', {
  /** Unresolved incidents, newest first, a page at a time, optionally of one system. */
  getIncidents: query(read).input(GetIncidentsInputSchema).output(IncidentListSchema),
  /**
   * A page of incidents, newest first, with the total; resolved ones only when asked. Pages by
   * `cursor` (stable while incidents are added) or by `offset`.
   */
  listIncidents: query(read).input(ListIncidentsInputSchema).output(IncidentPageSchema),
  /** One incident with its timeline. */
  getIncident: query(read).input(IdInputSchema).output(IncidentDetailSchema),
  /** Opens an incident as `investigating`, with a first timeline entry. */
  createIncident: mutation(manage).input(CreateIncidentInputSchema).output(IncidentDetailSchema),
  /** Changes the given fields; a new status or a message adds a timeline entry. */
  updateIncident: mutation(manage).input(UpdateIncidentInputSchema).output(IncidentDetailSchema),
  deleteIncident: mutation(manage).input(IdInputSchema).output(DeletedSchema),
});

export type IncidentContract = typeof incidentContract;
