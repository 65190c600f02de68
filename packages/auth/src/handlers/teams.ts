import type { RequestContext } from '@checkline/core';
import { pageScope } from '@checkline/core';
import { badRequest } from '@checkline/core/contract';
import { audit } from '../audit.ts';
import { teamDeleted } from '../events.ts';
import * as grants from '../resource-grants.ts';
import type { AuthState } from '../state.ts';
import { loadTeamUsers } from '../team-members.ts';
import * as teams from '../teams.ts';
import { os } from './implementer.ts';

type Member = { userId?: string; applicationId?: string };

const memberOf = (input: Member) =>
  input.userId
    ? { kind: 'user', id: input.userId }
    : { kind: 'application', id: input.applicationId };

export function teamHandlers(state: AuthState) {
  const target = (id: string) => ({ type: 'team', id });
  // The member's principal lists its teams, so it must be read again.
  const forgetMember = async (context: RequestContext, member: Member) => {
    if (member.userId) await state.invalidate(context, { kind: 'user', id: member.userId });
    if (member.applicationId) {
      await state.invalidate(context, { kind: 'application', id: member.applicationId });
    }
  };
  return {
    getTeamUsers: os.getTeamUsers.handler(async ({ context, input }) => ({
      teams: await loadTeamUsers(context.db, input.teamIds),
    })),
    getTeams: os.getTeams.handler(({ context, input }) =>
      teams.listTeams(context.db, input, pageScope(context)),
    ),
    createTeam: os.createTeam.handler(async ({ context, input }) => {
      const team = await teams.createTeam(context.db, input);
      await audit(context, 'team.created', target(team.id), { name: team.name });
      return team;
    }),
    updateTeam: os.updateTeam.handler(async ({ context, input }) => {
      const team = await teams.updateTeam(context.db, input);
      await audit(context, 'team.updated', target(team.id), { name: team.name });
      return team;
    }),
    deleteTeam: os.deleteTeam.handler(async ({ context, input }) => {
      const deleted = await teams.deleteTeam(context.db, input.id);
      await audit(context, 'team.deleted', target(input.id));
      context.emit(teamDeleted, { id: input.id });
      await state.invalidate(context, { kind: 'everything' });
      return deleted;
    }),
    addTeamMember: os.addTeamMember.handler(async ({ context, input }) => {
      const team = await teams.addTeamMember(context.db, input);
      await audit(context, 'team.member_added', target(input.teamId), {
        member: memberOf(input),
        manager: input.manager ?? false,
      });
      await forgetMember(context, input);
      return team;
    }),
    removeTeamMember: os.removeTeamMember.handler(async ({ context, input }) => {
      const team = await teams.removeTeamMember(context.db, input);
      await audit(context, 'team.member_removed', target(input.teamId), {
        member: memberOf(input),
      });
      await forgetMember(context, input);
      return team;
    }),
    getResourceAccess: os.getResourceAccess.handler(({ context, input }) =>
      grants.getResourceAccess(context.db, input),
    ),
    updateResourceAccess: os.updateResourceAccess.handler(async ({ context, input }) => {
      if (!state.facts.resourceTypes.has(input.resourceType)) {
        throw badRequest(`Unknown resource type ${input.resourceType}`);
      }
      const previous = await grants.getResourceAccess(context.db, input);
      const updated = await grants.updateResourceAccess(context.db, input);
      await audit(
        context,
        'resource.access_changed',
        { type: input.resourceType, id: input.resourceId },
        {
          teamOnly: updated.teamOnly,
          grants: updated.grants,
          previous: { teamOnly: previous.teamOnly, grants: previous.grants },
        },
      );
      await state.invalidate(context, { kind: 'grants', resourceType: input.resourceType });
      return updated;
    }),
  };
}
