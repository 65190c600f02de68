import { idLinks } from '@checkline/db';
import { incidentSystems } from './db/schema.ts';

const links = idLinks(incidentSystems, 'incidentId', 'systemId', 'incident_systems_of_incidents');

/** The sorted system ids of each incident in `incidentIds`, in one query. */
export const systemIdsByIncident = links.byOwner;

export const replaceIncidentSystems = links.replace;
