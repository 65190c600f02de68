import { attachedToSystems, namesSystems } from '@checkline/catalog/contract';
import { defineContract, mutation, query } from '@checkline/core/contract';
import { maintenanceAccess } from './access.ts';
import {
  DeletedSchema,
  GetBulkActiveWindowsInputSchema,
  GetWindowsInputSchema,
  IdInputSchema,
  ScheduleWindowInputSchema,
  UpdateWindowInputSchema,
  WindowSchema,
  WindowsSchema,
} from './schemas.ts';

const read = { access: [maintenanceAccess.read] };
const manage = { access: [maintenanceAccess.manage] };
/** Windows belong to the systems in their `systemIds`; team-only ones hide them (API.md 2). */
const listedWindows = attachedToSystems('systemIds', 'windows');

export const maintenanceContract = defineContract('maintenance', {
  /** Active and upcoming windows by start, optionally of one system or including past ones. */
  getWindows: query({ ...read, ...listedWindows })
    .input(GetWindowsInputSchema)
    .output(WindowsSchema),
  /** Windows active right now that cover any of `systemIds` (healthcheck asks this). */
  getBulkActiveWindows: query({ ...read, ...listedWindows })
    .input(GetBulkActiveWindowsInputSchema)
    .output(WindowsSchema),
  /** Plans a window; `startAt` must be before `endAt` and every system must exist. */
  scheduleWindow: mutation({ ...manage, ...namesSystems('systemIds') })
    .input(ScheduleWindowInputSchema)
    .output(WindowSchema),
  /** Changes the given fields; the resulting `startAt` must still be before `endAt`. */
  updateWindow: mutation({ ...manage, ...namesSystems('systemIds') })
    .input(UpdateWindowInputSchema)
    .output(WindowSchema),
  deleteWindow: mutation(manage).input(IdInputSchema).output(DeletedSchema),
});

export type MaintenanceContract = typeof maintenanceContract;
