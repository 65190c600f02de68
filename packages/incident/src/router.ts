import { systemResource } from '@checkline/catalog/contract';
import type { RequestContext } from '@checkline/core';
import {
  assertAttachedReach,
  implementPlugin,
  notFound,
  pageScope,
  unreachableResources,
} from '@checkline/core';
import type { ResourceAccessLevel } from '@checkline/core/contract';
import { incidentContract } from './contract.ts';
import { incidentCreated, incidentEvent, incidentResolved, incidentUpdated } from './events.ts';
import { assertSystemsExist } from '@checkline/catalog';
import * as incidents from './service.ts';
import type { Author } from './timeline.ts';

const os = implementPlugin(incidentContract);

/** The incident, once the caller may see it (read) or change it (manage); a hidden incident answers as a missing one. */
async function reachIncident(context: RequestContext, id: string, level: ResourceAccessLevel) {
  const incident = await incidents.getIncident(context.db, id);
  await assertAttachedReach(context, systemResource, incident.systemIds, level, () =>
    notFound('Incident', id),
  );
  return incident;
}

const authorOf = (context: RequestContext): Author => ({
  id: context.principal.id,
  kind: context.principal.kind,
});

export const incidentRouter = os.router({
  getIncidents: os.getIncidents.handler(({ context, input }) =>
    incidents.listOpenIncidents(context.db, input, pageScope(context)),
  ),
  listIncidents: os.listIncidents.handler(async ({ context, input }) =>
    incidents.listIncidents(
      context.db,
      input,
      pageScope(context),
      await unreachableResources(context, systemResource, 'read'),
    ),
  ),
  getIncident: os.getIncident.handler(({ context, input }) =>
    reachIncident(context, input.id, 'read'),
  ),
  createIncident: os.createIncident.handler(async ({ context, input }) => {
    await assertSystemsExist(context, input.systemIds ?? []);
    const incident = await incidents.createIncident(context.db, input, authorOf(context));
    context.emit(incidentCreated, incidentEvent(incident));
    return incident;
  }),
  updateIncident: os.updateIncident.handler(async ({ context, input }) => {
    await reachIncident(context, input.id, 'manage');
    await assertSystemsExist(context, input.systemIds ?? []);
    const { incident, change } = await incidents.updateIncident(
      context.db,
      input,
      authorOf(context),
    );
    if (change !== 'none') {
      context.emit(
        change === 'resolved' ? incidentResolved : incidentUpdated,
        incidentEvent(incident, input.message),
      );
    }
    return incident;
  }),
  deleteIncident: os.deleteIncident.handler(async ({ context, input }) => {
    await reachIncident(context, input.id, 'manage');
    return incidents.deleteIncident(context.db, input.id);
  }),
});
