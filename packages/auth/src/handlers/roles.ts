import { pageScope } from '@checkline/core';
import { assertAnonymousMayHold } from '../anonymous-role.ts';
import { audit } from '../audit.ts';
import * as rbac from '../rbac.ts';
import type { AuthState } from '../state.ts';
import { os } from './implementer.ts';

export function roleHandlers(state: AuthState) {
  const { catalog } = state;
  const target = (id: string) => ({ type: 'role', id });
  return {
    getAccessRules: os.getAccessRules.handler(() => ({ accessRules: catalog.list() })),
    getRoles: os.getRoles.handler(({ context, input }) =>
      rbac.listRoles(context.db, catalog, input, pageScope(context)),
    ),
    createRole: os.createRole.handler(async ({ context, input }) => {
      rbac.assertMayGrantRules(context.principal, input.accessRules);
      assertAnonymousMayHold(input.name, input.accessRules, state.facts);
      const role = await rbac.createRole(context.db, input, catalog);
      const { name, accessRules } = role;
      await audit(context, 'role.created', target(role.id), { name, accessRules });
      return role;
    }),
    updateRole: os.updateRole.handler(async ({ context, input }) => {
      const current = await rbac.getRole(context.db, input.id, catalog);
      rbac.assertMayGrant(context.principal, [current]);
      rbac.assertMayGrantRules(context.principal, input.accessRules ?? []);
      assertAnonymousMayHold(current.name, input.accessRules ?? [], state.facts);
      const role = await rbac.updateRole(context.db, input, catalog);
      await audit(context, 'role.updated', target(role.id), {
        name: role.name,
        accessRules: role.accessRules,
        previousAccessRules: current.accessRules,
      });
      // Every user and application holding the role may now hold other rules.
      await state.invalidate(context, { kind: 'everything' });
      return role;
    }),
    deleteRole: os.deleteRole.handler(async ({ context, input }) => {
      const current = await rbac.getRole(context.db, input.id, catalog);
      rbac.assertMayGrant(context.principal, [current]);
      const deleted = await rbac.deleteRole(context.db, input.id, catalog);
      await audit(context, 'role.deleted', target(input.id), { name: current.name });
      await state.invalidate(context, { kind: 'everything' });
      return deleted;
    }),
  };
}
