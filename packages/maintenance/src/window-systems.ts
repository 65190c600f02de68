import { idLinks } from '@checkline/db';
import { windowSystems } from './db/schema.ts';

const links = idLinks(windowSystems, 'windowId', 'systemId', 'maintenance_systems_of_windows');

/** The sorted system ids of each window in `windowIds`, in one query. */
export const systemIdsByWindow = links.byOwner;

export const replaceWindowSystems = links.replace;
