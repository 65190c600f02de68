import { defineEvent } from '@checkline/core/contract';

export interface MaintenanceEvent {
  windowId: string;
  systemIds: string[];
  title: string;
  /** The window's planned period (ISO 8601); absent in events published before it was carried. */
  startAt?: string;
  endAt?: string;
}

/** A window's start has passed (announced once, by whichever server process claims it). */
export const maintenanceStarted = defineEvent<MaintenanceEvent>('maintenance.started');

/** A started window's end has passed, or it was deleted while active. */
export const maintenanceEnded = defineEvent<MaintenanceEvent>('maintenance.ended');

/** A window was scheduled, changed or deleted (its times or systems may differ from before). */
export const maintenanceWindowChanged = defineEvent<MaintenanceEvent>('maintenance.window_changed');
