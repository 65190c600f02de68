import type { Principal } from '@checkline/core/contract';
import { appError } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import type { AuthContract } from './contract.ts';
import type { Membership } from './principals.ts';
import { loadMemberships, loadRoleGrants } from './principals.ts';
import type {
  AddTeamMemberInput,
  RegenerateSecretInput,
  RemoveTeamMemberInput,
  UpdateApplicationInput,
  UpdateUserInput,
} from './schemas.ts';
import { getTeam } from './teams.ts';

/** A user or application a call acts on. */
export interface PrincipalRef {
  kind: 'user' | 'application';
  id: string;
}

const user = (id: string): PrincipalRef => ({ kind: 'user', id });
const application = (id: string): PrincipalRef => ({ kind: 'application', id });
const member = (input: AddTeamMemberInput | RemoveTeamMemberInput): PrincipalRef =>
  input.userId ? user(input.userId) : application(input.applicationId!);

type TargetsOf<T> = (input: T, db: Database) => PrincipalRef[] | Promise<PrincipalRef[]>;

/**
 * Every auth procedure that changes, rotates, expires, deletes or signs in as another user or
 * application, sets its password or e-mail, or changes team membership: which principals it
 * acts on, read from its validated input. A procedure added to the contract that acts on a
 * principal belongs here (a test walks the contract and fails for an unclassified mutation).
 */
export const actsOnPrincipals = {
  updateUser: (input: UpdateUserInput) => [user(input.id)],
  deleteUser: (input: { id: string }) => [user(input.id)],
  updateApplication: (input: UpdateApplicationInput) => [application(input.id)],
  deleteApplication: (input: { id: string }) => [application(input.id)],
  regenerateApplicationSecret: (input: RegenerateSecretInput) => [application(input.id)],
  addTeamMember: (input: AddTeamMemberInput) => [member(input)],
  removeTeamMember: (input: RemoveTeamMemberInput) => [member(input)],
  // Deleting a team takes every member out of it.
  deleteTeam: async (input: { id: string }, db: Database) =>
    (await getTeam(db, input.id)).members.map((entry) => ({ kind: entry.kind, id: entry.id })),
} satisfies { [K in keyof AuthContract]?: TargetsOf<never> };

const forbidden = (target: PrincipalRef, why: string) =>
  appError('FORBIDDEN', `You cannot act on ${target.kind} ${target.id}: ${why}`);

/** The caller's own teams; a caller that is no user or application is in none. */
function membershipsOf(db: Database, caller: Principal): Promise<Membership[]> {
  if (caller.id === null || (caller.kind !== 'user' && caller.kind !== 'application')) {
    return Promise.resolve([]);
  }
  return loadMemberships(db, caller.kind, caller.id);
}

/**
 * Why the caller does not reach every team the target reaches, if it does not: it must be a
 * member of each of the target's teams, and a manager of each the target manages (a manager
 * changes the team's members, so acting as one would let a plain member do so).
 */
async function teamReachMissing(
  db: Database,
  caller: Principal,
  target: PrincipalRef,
): Promise<string | undefined> {
  const theirs = await loadMemberships(db, target.kind, target.id);
  if (theirs.length === 0) return undefined;
  const mine = new Map((await membershipsOf(db, caller)).map((m) => [m.teamId, m.manager]));
  for (const membership of theirs) {
    const manager = mine.get(membership.teamId);
    if (manager === undefined) {
      return `it is a member of team ${membership.teamId}, which you are not`;
    }
    if (membership.manager && !manager) {
      return `it manages team ${membership.teamId}, which you do not`;
    }
  }
  return undefined;
}

/**
 * The rule for acting on a principal: the caller must reach everything the target reaches,
 * both every access rule the target holds and every team it is in (what its teams' grants
 * reach). Admins may act on anyone; nobody else may act on an admin.
 */
export async function assertMayActOn(
  db: Database,
  caller: Principal,
  target: PrincipalRef,
): Promise<void> {
  if (caller.isAdmin) return;
  const grants = await loadRoleGrants(db, target.kind, target.id);
  if (grants.isAdmin) throw forbidden(target, 'it is an admin and you are not');
  const foreign = grants.rules.find((rule) => !caller.accessRules.includes(rule));
  if (foreign) throw forbidden(target, `it holds ${foreign}, which you do not hold`);
  const missingTeam = await teamReachMissing(db, caller, target);
  if (missingTeam) throw forbidden(target, missingTeam);
}

/** The principals `procedure` acts on with this validated input; none for other procedures. */
export async function principalsActedOn(
  procedure: string,
  input: unknown,
  db: Database,
): Promise<PrincipalRef[]> {
  if (!Object.hasOwn(actsOnPrincipals, procedure)) return [];
  const targetsOf = actsOnPrincipals[
    procedure as keyof typeof actsOnPrincipals
  ] as TargetsOf<unknown>;
  return targetsOf(input, db);
}
