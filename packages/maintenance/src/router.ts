import { systemResource } from '@checkline/catalog/contract';
import type { RequestContext } from '@checkline/core';
import { assertAttachedReach, implementPlugin, notFound, pageScope } from '@checkline/core';
import { maintenanceContract } from './contract.ts';
import { maintenanceEnded, maintenanceWindowChanged } from './events.ts';
import type { Window } from './schemas.ts';
import { assertSystemsExist } from '@checkline/catalog';
import * as maintenance from './service.ts';

const os = implementPlugin(maintenanceContract);

const windowEvent = (window: Pick<Window, 'id' | 'systemIds' | 'title' | 'startAt' | 'endAt'>) => ({
  windowId: window.id,
  systemIds: window.systemIds,
  title: window.title,
  startAt: window.startAt,
  endAt: window.endAt,
});

/** Throws unless the caller may change the window: every team-only system of it allows manage. */
async function assertWindowChangeable(context: RequestContext, id: string) {
  const window = await maintenance.getWindow(context.db, id);
  await assertAttachedReach(context, systemResource, window.systemIds, 'manage', () =>
    notFound('Maintenance window', id),
  );
}

export const maintenanceRouter = os.router({
  getWindows: os.getWindows.handler(({ context, input }) =>
    maintenance.listWindows(context.db, input, pageScope(context)),
  ),
  getBulkActiveWindows: os.getBulkActiveWindows.handler(async ({ context, input }) => ({
    windows: await maintenance.activeWindowsCovering(context.db, input.systemIds),
  })),
  scheduleWindow: os.scheduleWindow.handler(async ({ context, input }) => {
    await assertSystemsExist(context, input.systemIds);
    const window = await maintenance.scheduleWindow(context.db, input);
    context.emit(maintenanceWindowChanged, windowEvent(window));
    return window;
  }),
  updateWindow: os.updateWindow.handler(async ({ context, input }) => {
    await assertWindowChangeable(context, input.id);
    await assertSystemsExist(context, input.systemIds ?? []);
    const window = await maintenance.updateWindow(context.db, input);
    context.emit(maintenanceWindowChanged, windowEvent(window));
    return window;
  }),
  deleteWindow: os.deleteWindow.handler(async ({ context, input }) => {
    await assertWindowChangeable(context, input.id);
    const { window, interrupted } = await maintenance.deleteWindow(context.db, input.id);
    // Subscribers were told it started; deleting it mid-way ends the maintenance for them.
    if (interrupted) context.emit(maintenanceEnded, windowEvent(window));
    context.emit(maintenanceWindowChanged, windowEvent(window));
    return { id: window.id, deleted: true as const };
  }),
});
