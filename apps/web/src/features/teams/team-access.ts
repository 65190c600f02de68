import { mayCall, type Me } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';

export interface TeamMember {
  kind: 'user' | 'application';
  id: string;
  manager: boolean;
}

/**
 * A team's own managers may change it and its members without `auth.teams.manage` (the server
 * lets a team grant stand in for the rule), so the rule alone would hide what they may do.
 */
export function mayManageTeam(me: Me, team: { members: readonly TeamMember[] }): boolean {
  if (mayCall(me, contracts.auth.updateTeam)) return true;
  return team.members.some(
    (member) => member.kind === me.kind && member.id === me.id && member.manager,
  );
}

/** The teams screen: every team with the rule, one's own teams as a member of any. */
export function mayOpenTeams(me: Me): boolean {
  return mayCall(me, contracts.auth.getTeams) || (me.kind === 'user' && me.teamIds.length > 0);
}
