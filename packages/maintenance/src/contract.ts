import { defineContract, mutation, query } from '@checkline/core/contract';
import { maintenanceAccess } from './access.ts';
import {
  DeletedSchema,
  GetBulkActiveWindowsInputSchema,
  GetWindowsInputSchema,
  IdInputSchema,
  ScheduleWindowInputSchema,
  UpdateWindowInputSchema,
  WindowPageSchema,
  WindowSchema,
  WindowsSchema,
} from './schemas.ts';

const read = { access: [maintenanceAccess.read] };
const manage = { access: [maintenanceAccess.manage] };

export const maintenanceContract = defineContract('maintenance', {
  /**
   * Active and upcoming windows by start, a page at a time, optionally of one system or
   * including past ones.
   */
  getWindows: query(read).input(GetWindowsInputSchema).output(WindowPageSchema),
  /** Windows active right now that cover any of `systemIds` (healthcheck asks this). */
  getBulkActiveWindows: query(read).input(GetBulkActiveWindowsInputSchema).output(WindowsSchema),
  /** Plans a window; `startAt` must be before `endAt` and every system must exist. */
  scheduleWindow: mutation(manage).input(ScheduleWindowInputSchema).output(WindowSchema),
  /** Changes the given fields; the resulting `startAt` must still be before `endAt`. */
  updateWindow: mutation(manage).input(UpdateWindowInputSchema).output(WindowSchema),
  deleteWindow: mutation(manage).input(IdInputSchema).output(DeletedSchema),
});

export type MaintenanceContract = typeof maintenanceContract;
