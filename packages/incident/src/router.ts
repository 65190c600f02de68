import type { RequestContext } from '@checkline/core';
import { implementPlugin } from '@checkline/core';
import { incidentContract } from './contract.ts';
import { incidentCreated, incidentEvent, incidentResolved, incidentUpdated } from './events.ts';
import { assertSystemsExist } from '@checkline/catalog';
import * as incidents from './service.ts';
import type { Author } from './timeline.ts';

const os = implementPlugin(incidentContract);

const authorOf = (context: RequestContext): Author => ({
  id: context.principal.id,
  kind: context.principal.kind,
});

export const incidentRouter = os.router({
  getIncidents: os.getIncidents.handler(({ context, input }) =>
    incidents.listOpenIncidents(context.db, input),
  ),
  listIncidents: os.listIncidents.handler(({ context, input }) =>
    incidents.listIncidents(context.db, input),
  ),
  getIncident: os.getIncident.handler(({ context, input }) =>
    incidents.getIncident(context.db, input.id),
  ),
  createIncident: os.createIncident.handler(async ({ context, input }) => {
    await assertSystemsExist(context, input.systemIds ?? []);
    const incident = await incidents.createIncident(context.db, input, authorOf(context));
    context.emit(incidentCreated, incidentEvent(incident));
    return incident;
  }),
  updateIncident: os.updateIncident.handler(async ({ context, input }) => {
    await assertSystemsExist(context, input.systemIds ?? []);
    const { incident, change } = await incidents.updateIncident(
      context.db,
      input,
      authorOf(context),
    );
    if (change !== 'none') {
      context.emit(
        change === 'resolved' ? incidentResolved : incidentUpdated,
        incidentEvent(incident),
      );
    }
    return incident;
  }),
  deleteIncident: os.deleteIncident.handler(({ context, input }) =>
    incidents.deleteIncident(context.db, input.id),
  ),
});
