import { PageInputSchema, defineContract, mutation, query, raises } from '@checkline/core/contract';
import { z } from 'zod';
import { TEAM_RESOURCE, authAccess } from './access.ts';
import {
  AccessRuleSchema,
  AddTeamMemberInputSchema,
  ApplicationPageSchema,
  ApplicationSchema,
  AuditPageSchema,
  ChangeMyPasswordInputSchema,
  CreateApplicationInputSchema,
  CreatedApplicationSchema,
  CreateRoleInputSchema,
  CreateTeamInputSchema,
  CreateUserInputSchema,
  DeletedSchema,
  EmptyInputSchema,
  GetAuditLogInputSchema,
  GetApplicationProfilesInputSchema,
  GetUserProfilesInputSchema,
  GetTeamUsersInputSchema,
  TeamUsersListSchema,
  IdInputSchema,
  MeSchema,
  PasswordChangedSchema,
  RegenerateSecretInputSchema,
  RegistrationStatusSchema,
  LoginStrategiesSchema,
  RemoveTeamMemberInputSchema,
  ResourceAccessSchema,
  ResourceRefInputSchema,
  RolePageSchema,
  RoleSchema,
  SecretSchema,
  TeamPageSchema,
  TeamSchema,
  UpdateApplicationInputSchema,
  UpdateResourceAccessInputSchema,
  UpdateRoleInputSchema,
  UpdateTeamInputSchema,
  UpdateUserInputSchema,
  UserPageSchema,
  UserProfilesSchema,
  ApplicationProfilesSchema,
  UserSchema,
} from './schemas.ts';

const users = { access: [authAccess.users] };
const applications = { access: [authAccess.applications] };
const roles = { access: [authAccess.roles] };
const teams = { access: [authAccess.teams] };
/** Team changes: `auth.teams.manage`, or being a manager of the team named by `idField`. */
const teamChange = (idField: string) => ({
  ...teams,
  resource: { type: TEAM_RESOURCE, idField, level: 'manage' as const },
});

export const authContract = defineContract('auth', {
  getMe: query({
    principals: ['user', 'application'],
    summary: 'The caller as every surface sees it: kind, id, access rules, teams.',
  })
    .input(EmptyInputSchema)
    .output(MeSchema),
  changeMyPassword: mutation({
    principals: ['user'],
    summary: 'A signed-in person changes their own password.',
    description:
      'The current password must be given and the new one must pass the password policy; every other session of theirs ends, this one stays.',
  })
    .errors(raises('NOT_FOUND'))
    .input(ChangeMyPasswordInputSchema)
    .output(PasswordChangedSchema),
  getRegistrationStatus: query({
    summary: 'Open to anyone: whether sign-up strategies may create users.',
  })
    .input(EmptyInputSchema)
    .output(RegistrationStatusSchema),
  getLoginStrategies: query({
    summary: 'Open to anyone: the ways of signing in the server offers, for the sign-in page.',
    description:
      'A strategy with a `signInUrl` begins with a browser redirect to it (`?returnTo=/path` picks where to land); `custom` is the e-mail and password form.',
  })
    .input(EmptyInputSchema)
    .output(LoginStrategiesSchema),
  updateRegistrationStatus: mutation({
    ...users,
    summary: 'Lets sign-up strategies create users, or stops them.',
  })
    .input(RegistrationStatusSchema)
    .output(RegistrationStatusSchema),

  getUsers: query({ ...users, summary: 'Users by e-mail with their roles, a page at a time.' })
    .input(PageInputSchema)
    .output(UserPageSchema),
  createUser: mutation({ ...users, summary: 'Creates a user with a password and roles.' })
    .errors(raises('CONFLICT'))
    .input(CreateUserInputSchema)
    .output(UserSchema),
  updateUser: mutation({ ...users, summary: 'Changes the given fields of a user.' })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(UpdateUserInputSchema)
    .output(UserSchema),
  deleteUser: mutation({ ...users, summary: 'Deletes a user.' })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(IdInputSchema)
    .output(DeletedSchema),

  getUserProfiles: query({
    principals: ['service'],
    bulk: true,
    summary: 'Other plugins only: e-mail, name, rules, teams and sign-in identities of users.',
    description:
      'For addressing users (notifications): each existing user among `userIds` (at most 10 000), with the access rules their principal holds; unknown ids are left out.',
  })
    .input(GetUserProfilesInputSchema)
    .output(UserProfilesSchema),

  getApplicationProfiles: query({
    principals: ['service'],
    bulk: true,
    summary: 'Other plugins only: name, rules and teams of applications.',
    description:
      'For addressing applications (webhook subscriptions): each existing application among `applicationIds` (at most 10 000) whose key has not expired, with the access rules its principal holds; other ids are left out.',
  })
    .input(GetApplicationProfilesInputSchema)
    .output(ApplicationProfilesSchema),

  getTeamUsers: query({
    principals: ['service'],
    bulk: true,
    summary: 'Other plugins only: the users who are members of each team now.',
    description:
      'For addressing a team (notifications): each existing team among `teamIds` (at most 1 000) with the ids of its user members (applications left out); unknown ids are left out.',
  })
    .input(GetTeamUsersInputSchema)
    .output(TeamUsersListSchema),

  getApplications: query({
    ...applications,
    summary: 'Applications by name with their roles (never their keys), a page at a time.',
  })
    .input(PageInputSchema)
    .output(ApplicationPageSchema),
  createApplication: mutation({
    ...applications,
    summary: 'A new application with the role `applications`, and its key, shown this once.',
  })
    .errors(raises('CONFLICT'))
    .input(CreateApplicationInputSchema)
    .output(CreatedApplicationSchema),
  updateApplication: mutation({
    ...applications,
    summary:
      'Changes the given fields of an application; `roleIds` replaces its whole set of roles.',
  })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(UpdateApplicationInputSchema)
    .output(ApplicationSchema),
  deleteApplication: mutation({
    ...applications,
    summary: 'Deletes an application; its key stops working at once.',
  })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
  regenerateApplicationSecret: mutation({
    ...applications,
    summary: 'A new key; the old one works for `gracePeriodSeconds` more (0: ends at once).',
  })
    .errors(raises('NOT_FOUND'))
    .input(RegenerateSecretInputSchema)
    .output(SecretSchema),

  getAccessRules: query({ ...roles, summary: 'Every access rule of every mounted plugin.' })
    .input(EmptyInputSchema)
    .output(z.object({ accessRules: z.array(AccessRuleSchema) })),
  getRoles: query({ ...roles, summary: 'Roles by name with their access rules, a page at a time.' })
    .input(PageInputSchema)
    .output(RolePageSchema),
  createRole: mutation({ ...roles, summary: 'Creates a role holding the given access rules.' })
    .errors(raises('CONFLICT'))
    .input(CreateRoleInputSchema)
    .output(RoleSchema),
  updateRole: mutation({ ...roles, summary: 'Changes the given fields of a role.' })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(UpdateRoleInputSchema)
    .output(RoleSchema),
  deleteRole: mutation({ ...roles, summary: 'Deletes a role.' })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(IdInputSchema)
    .output(DeletedSchema),

  getTeams: query({
    ...teams,
    resourceList: { type: TEAM_RESOURCE, field: 'teams' },
    summary:
      "Teams by name, a page at a time: every team with `auth.teams.manage`, otherwise the caller's own.",
    description:
      'Teams the caller may not see are left out; a page fills with rows the caller may see, so only the last page is short.',
  })
    .input(PageInputSchema)
    .output(TeamPageSchema),
  createTeam: mutation({ ...teams, summary: 'Creates a team.' })
    .errors(raises('CONFLICT'))
    .input(CreateTeamInputSchema)
    .output(TeamSchema),
  updateTeam: mutation({ ...teamChange('id'), summary: 'Changes the given fields of a team.' })
    .errors(raises('CONFLICT'))
    .input(UpdateTeamInputSchema)
    .output(TeamSchema),
  deleteTeam: mutation({ ...teams, summary: 'Deletes a team.' })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
  addTeamMember: mutation({
    ...teamChange('teamId'),
    summary: 'Adds a user or an application to a team.',
  })
    .input(AddTeamMemberInputSchema)
    .output(TeamSchema),
  removeTeamMember: mutation({
    ...teamChange('teamId'),
    summary: 'Takes a user or an application out of a team.',
  })
    .input(RemoveTeamMemberInputSchema)
    .output(TeamSchema),
  getResourceAccess: query({ ...teams, summary: "A resource's team grants and team-only flag." })
    .input(ResourceRefInputSchema)
    .output(ResourceAccessSchema),
  updateResourceAccess: mutation({
    ...teams,
    summary: "Replaces a resource's team grants and team-only flag.",
  })
    .errors(raises('NOT_FOUND'))
    .input(UpdateResourceAccessInputSchema)
    .output(ResourceAccessSchema),

  getAuditLog: query({
    access: [authAccess.audit],
    summary:
      'Audit log entries, newest first, a page at a time, optionally from `before` back, of one `action` and by one `actorId`.',
  })
    .input(GetAuditLogInputSchema)
    .output(AuditPageSchema),
});

export type AuthContract = typeof authContract;
