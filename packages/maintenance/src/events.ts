import { defineEvent } from '@checkline/core/contract';

export interface MaintenanceEvent {
  windowId: string;
  systemIds: string[];
  title: string;
}

/** A window's start has passed (announced once, by whichever server process claims it). */
export const maintenanceStarted = defineEvent<MaintenanceEvent>('maintenance.started');

/** A started window's end has passed, or it was deleted while active. */
export const maintenanceEnded = defineEvent<MaintenanceEvent>('maintenance.ended');
