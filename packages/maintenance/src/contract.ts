import { attachedListOfSystems, attachedToSystemsIn } from '@checkline/catalog/contract';
import { defineContract, mutation, query, raises } from '@checkline/core/contract';
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
/** Windows belong to the systems in their `systemIds`; team-only ones hide them. */
const listedWindows = attachedListOfSystems('systemIds', 'windows');

export const maintenanceContract = defineContract('maintenance', {
  getWindows: query({
    ...read,
    ...listedWindows,
    summary:
      'Active and upcoming windows by start, a page at a time, optionally of one system or including past ones.',
  })
    .input(GetWindowsInputSchema)
    .output(WindowPageSchema),
  getBulkActiveWindows: query({
    ...read,
    ...listedWindows,
    summary: 'Windows active right now that cover any of `systemIds` (healthcheck asks this).',
  })
    .input(GetBulkActiveWindowsInputSchema)
    .output(WindowsSchema),
  scheduleWindow: mutation({
    ...manage,
    ...attachedToSystemsIn('systemIds'),
    summary: 'Plans a window; `startAt` must be before `endAt` and every system must exist.',
  })
    .input(ScheduleWindowInputSchema)
    .output(WindowSchema),
  updateWindow: mutation({
    ...manage,
    ...attachedToSystemsIn('systemIds'),
    summary: 'Changes the given fields; the resulting `startAt` must still be before `endAt`.',
  })
    .input(UpdateWindowInputSchema)
    .output(WindowSchema),
  deleteWindow: mutation({
    ...manage,
    summary: 'Deletes a window; one in progress announces its end.',
  })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
});

export type MaintenanceContract = typeof maintenanceContract;
