import { pageScope } from '@checkline/core';
import { loadApplicationProfiles } from '../application-profiles.ts';
import * as applications from '../applications.ts';
import { audit } from '../audit.ts';
import { principalDeleted } from '../events.ts';
import * as rbac from '../rbac.ts';
import type { AuthState } from '../state.ts';
import { os } from './implementer.ts';

export function applicationHandlers(state: AuthState) {
  const { catalog } = state;
  const target = (id: string) => ({ type: 'application', id });
  return {
    getApplicationProfiles: os.getApplicationProfiles.handler(async ({ context, input }) => ({
      profiles: await loadApplicationProfiles(context.db, input.applicationIds, catalog),
    })),
    getApplications: os.getApplications.handler(({ context, input }) =>
      applications.listApplications(context.db, input, pageScope(context)),
    ),
    createApplication: os.createApplication.handler(async ({ context, input }) => {
      const roleId = await rbac.builtInRoleId(context.db, 'applications');
      const created = await applications.createApplication(context.db, input, [roleId]);
      const { id, name } = created.application;
      await audit(context, 'application.created', target(id), { name });
      return created;
    }),
    updateApplication: os.updateApplication.handler(async ({ context, input }) => {
      const { roleIds, ...changes } = input;
      const { db, principal } = context;
      const current = await applications.getApplication(db, input.id);
      if (roleIds) {
        const changed = await rbac.assertMayChangeRoles(
          db,
          principal,
          current.roleIds,
          roleIds,
          catalog,
        );
        await applications.setApplicationRoles(db, input.id, roleIds);
        if (changed.length) {
          await audit(context, 'application.roles_changed', target(input.id), {
            roleIds: [...new Set(roleIds)].sort(),
            previousRoleIds: current.roleIds,
          });
        }
      }
      await applications.updateApplication(db, changes);
      const changed = Object.keys(changes).filter((key) => key !== 'id');
      if (changed.length)
        await audit(context, 'application.updated', target(input.id), { changed });
      await state.invalidate(context, { kind: 'application', id: input.id });
      return applications.getApplication(db, input.id);
    }),
    deleteApplication: os.deleteApplication.handler(async ({ context, input }) => {
      const deleted = await applications.deleteApplication(context.db, input.id);
      await audit(context, 'application.deleted', target(input.id));
      context.emit(principalDeleted, { kind: 'application', id: input.id });
      await state.invalidate(context, { kind: 'application', id: input.id });
      return deleted;
    }),
    regenerateApplicationSecret: os.regenerateApplicationSecret.handler(
      async ({ context, input }) => {
        const { id, gracePeriodSeconds } = input;
        const secret = await applications.regenerateSecret(context.db, id, gracePeriodSeconds);
        await audit(context, 'application.secret_regenerated', target(id), { gracePeriodSeconds });
        await state.invalidate(context, { kind: 'application', id });
        return { secret };
      },
    ),
  };
}
