import { attachedToSystems, namesSystems } from '@checkline/catalog/contract';
import { defineContract, mutation, query } from '@checkline/core/contract';
import { z } from 'zod';
import { incidentAccess } from './access.ts';
import {
  CreateIncidentInputSchema,
  DeletedSchema,
  GetIncidentsInputSchema,
  IdInputSchema,
  IncidentDetailSchema,
  IncidentPageSchema,
  IncidentSchema,
  ListIncidentsInputSchema,
  UpdateIncidentInputSchema,
} from './schemas.ts';

const read = { access: [incidentAccess.read] };
const manage = { access: [incidentAccess.manage] };
/** Incidents belong to the systems in their `systemIds`; team-only ones hide them (API.md 2). */
const listedIncidents = attachedToSystems('systemIds', 'incidents');

export const incidentContract = defineContract('incident', {
  /** Unresolved incidents, newest first, optionally only those affecting one system. */
  getIncidents: query({ ...read, ...listedIncidents })
    .input(GetIncidentsInputSchema)
    .output(z.object({ incidents: z.array(IncidentSchema) })),
  /** A page of incidents, newest first, with the total; resolved ones only when asked. */
  listIncidents: query({ ...read, ...listedIncidents })
    .input(ListIncidentsInputSchema)
    .output(IncidentPageSchema),
  /** One incident with its timeline. */
  getIncident: query({ ...read, ...attachedToSystems('systemIds') })
    .input(IdInputSchema)
    .output(IncidentDetailSchema),
  /** Opens an incident as `investigating`, with a first timeline entry. */
  createIncident: mutation({ ...manage, ...namesSystems('systemIds') })
    .input(CreateIncidentInputSchema)
    .output(IncidentDetailSchema),
  /** Changes the given fields; a new status or a message adds a timeline entry. */
  updateIncident: mutation({ ...manage, ...namesSystems('systemIds') })
    .input(UpdateIncidentInputSchema)
    .output(IncidentDetailSchema),
  deleteIncident: mutation(manage).input(IdInputSchema).output(DeletedSchema),
});

export type IncidentContract = typeof incidentContract;
