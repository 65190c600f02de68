import { attachedListOfSystems, attachedToSystemsIn } from '@checkline/catalog/contract';
import { defineContract, mutation, query, raises } from '@checkline/core/contract';
import { incidentAccess } from './access.ts';
import {
  CreateIncidentInputSchema,
  DeletedSchema,
  GetIncidentsInputSchema,
  IdInputSchema,
  IncidentDetailSchema,
  IncidentListSchema,
  ListIncidentsInputSchema,
  UpdateIncidentInputSchema,
} from './schemas.ts';

const read = { access: [incidentAccess.read] };
const manage = { access: [incidentAccess.manage] };
/** Incidents belong to the systems in their `systemIds`; team-only ones hide them. */
const listedIncidents = attachedListOfSystems('systemIds', 'incidents');

export const incidentContract = defineContract('incident', {
  getIncidents: query({
    ...read,
    ...listedIncidents,
    summary: 'Unresolved incidents, newest first, a page at a time, optionally of one system.',
  })
    .input(GetIncidentsInputSchema)
    .output(IncidentListSchema),
  listIncidents: query({
    ...read,
    ...listedIncidents,
    summary: 'Incidents, newest first, a page at a time; resolved ones too when asked.',
    description:
      'Pages by `cursor` like every list: pass `nextCursor` back until it is null (stable while incidents are added).',
  })
    .input(ListIncidentsInputSchema)
    .output(IncidentListSchema),
  getIncident: query({
    ...read,
    ...attachedListOfSystems('systemIds'),
    summary: 'One incident with its timeline.',
  })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(IncidentDetailSchema),
  createIncident: mutation({
    ...manage,
    ...attachedToSystemsIn('systemIds'),
    summary: 'Opens an incident as `investigating`, with a first timeline entry.',
  })
    .input(CreateIncidentInputSchema)
    .output(IncidentDetailSchema),
  updateIncident: mutation({
    ...manage,
    ...attachedToSystemsIn('systemIds'),
    summary: 'Changes the given fields; a new status or a message adds a timeline entry.',
  })
    .input(UpdateIncidentInputSchema)
    .output(IncidentDetailSchema),
  deleteIncident: mutation({ ...manage, summary: 'Deletes an incident and its timeline.' })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
});

export type IncidentContract = typeof incidentContract;
