import { pageScope } from '@checkline/core';
import { audit } from '../audit.ts';
import { principalDeleted } from '../events.ts';
import { hashPassword } from '../password.ts';
import { assertAcceptablePassword } from '../password-policy.ts';
import * as rbac from '../rbac.ts';
import { deleteUserSessions } from '../sessions.ts';
import type { AuthState } from '../state.ts';
import { loadUserProfiles } from '../user-profiles.ts';
import * as users from '../users.ts';
import { os } from './implementer.ts';

export function userHandlers(state: AuthState) {
  const { catalog } = state;
  return {
    getUsers: os.getUsers.handler(({ context, input }) =>
      users.listUsers(context.db, input, pageScope(context)),
    ),
    getUserProfiles: os.getUserProfiles.handler(async ({ context, input }) => ({
      profiles: await loadUserProfiles(context.db, input.userIds, catalog),
    })),
    createUser: os.createUser.handler(async ({ context, input }) => {
      const roleIds = input.roleIds ?? [await rbac.builtInRoleId(context.db, 'users')];
      await rbac.assertMayChangeRoles(context.db, context.principal, [], roleIds, catalog);
      assertAcceptablePassword(input.password);
      const user = await users.createUser(context.db, {
        email: input.email,
        name: input.name,
        passwordHash: await hashPassword(input.password),
        roleIds,
      });
      const { email } = user;
      await audit(context, 'user.created', { type: 'user', id: user.id }, { email, roleIds });
      return user;
    }),
    updateUser: os.updateUser.handler(async ({ context, input }) => {
      const { id, roleIds, password, ...changes } = input;
      const target = { type: 'user', id };
      const current = await users.getUser(context.db, id);
      if (roleIds) {
        const { db, principal } = context;
        const changed = await rbac.assertMayChangeRoles(
          db,
          principal,
          current.roleIds,
          roleIds,
          catalog,
        );
        const adminId = await rbac.builtInRoleId(db, 'admin');
        if (!roleIds.includes(adminId)) await users.assertNotLastAdmin(db, current, adminId);
        await users.setUserRoles(db, id, roleIds);
        if (changed.length) await audit(context, 'user.roles_changed', target, { roleIds });
      }
      if (password !== undefined) assertAcceptablePassword(password);
      const passwordHash = password === undefined ? undefined : await hashPassword(password);
      const user = await users.updateUser(context.db, id, { ...changes, passwordHash });
      // A new password ends every session: whoever knew the old one is signed out.
      if (passwordHash) await deleteUserSessions(context.db, id);
      const changed = Object.keys(changes).concat(passwordHash ? ['password'] : []);
      if (changed.length) await audit(context, 'user.updated', target, { changed });
      await state.invalidate(context, { kind: 'user', id });
      return user;
    }),
    deleteUser: os.deleteUser.handler(async ({ context, input }) => {
      const { db, principal } = context;
      const current = await users.getUser(db, input.id);
      await rbac.assertMayChangeRoles(db, principal, current.roleIds, [], catalog);
      await users.assertNotLastAdmin(db, current, await rbac.builtInRoleId(db, 'admin'));
      const deleted = await users.deleteUser(db, input.id);
      const target = { type: 'user', id: input.id };
      await audit(context, 'user.deleted', target, { email: current.email });
      context.emit(principalDeleted, { kind: 'user', id: input.id });
      await state.invalidate(context, { kind: 'user', id: input.id });
      return deleted;
    }),
  };
}
