import { PageInputSchema, defineContract, mutation, query } from '@checkline/core/contract';
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
  IdInputSchema,
  MeSchema,
  PasswordChangedSchema,
  RegenerateSecretInputSchema,
  RegistrationStatusSchema,
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
  /** The caller as every surface sees it: kind, id, access rules, teams. */
  getMe: query({ principals: ['user', 'application'] })
    .input(EmptyInputSchema)
    .output(MeSchema),
  /**
   * A signed-in person changes their own password: the current one must be given, the new one
   * must pass the password policy; every other session of theirs ends, this one stays.
   */
  changeMyPassword: mutation({ principals: ['user'] })
    .input(ChangeMyPasswordInputSchema)
    .output(PasswordChangedSchema),
  /** Open to anyone: whether sign-up strategies may create users. */
  getRegistrationStatus: query().input(EmptyInputSchema).output(RegistrationStatusSchema),
  updateRegistrationStatus: mutation(users)
    .input(RegistrationStatusSchema)
    .output(RegistrationStatusSchema),

  /** Users by e-mail, a page at a time. */
  getUsers: query(users).input(PageInputSchema).output(UserPageSchema),
  createUser: mutation(users).input(CreateUserInputSchema).output(UserSchema),
  updateUser: mutation(users).input(UpdateUserInputSchema).output(UserSchema),
  deleteUser: mutation(users).input(IdInputSchema).output(DeletedSchema),

  /** Applications by name, a page at a time. */
  getApplications: query(applications).input(PageInputSchema).output(ApplicationPageSchema),
  /** A new application with the role `applications`, and its key, shown this once. */
  createApplication: mutation(applications)
    .input(CreateApplicationInputSchema)
    .output(CreatedApplicationSchema),
  updateApplication: mutation(applications)
    .input(UpdateApplicationInputSchema)
    .output(ApplicationSchema),
  deleteApplication: mutation(applications).input(IdInputSchema).output(DeletedSchema),
  /** A new key; the old one works for `gracePeriodSeconds` more (0: ends at once). */
  regenerateApplicationSecret: mutation(applications)
    .input(RegenerateSecretInputSchema)
    .output(SecretSchema),

  /** Every access rule of every mounted plugin. */
  getAccessRules: query(roles)
    .input(EmptyInputSchema)
    .output(z.object({ accessRules: z.array(AccessRuleSchema) })),
  /** Roles by name, a page at a time. */
  getRoles: query(roles).input(PageInputSchema).output(RolePageSchema),
  createRole: mutation(roles).input(CreateRoleInputSchema).output(RoleSchema),
  updateRole: mutation(roles).input(UpdateRoleInputSchema).output(RoleSchema),
  deleteRole: mutation(roles).input(IdInputSchema).output(DeletedSchema),

  /**
   * Teams by name, a page at a time: every team with `auth.teams.manage`, otherwise the caller's
   * own. Teams the caller may not see are left out after the page is read (a page may be short).
   */
  getTeams: query({ ...teams, resourceList: { type: TEAM_RESOURCE, field: 'teams' } })
    .input(PageInputSchema)
    .output(TeamPageSchema),
  createTeam: mutation(teams).input(CreateTeamInputSchema).output(TeamSchema),
  updateTeam: mutation(teamChange('id')).input(UpdateTeamInputSchema).output(TeamSchema),
  deleteTeam: mutation(teams).input(IdInputSchema).output(DeletedSchema),
  addTeamMember: mutation(teamChange('teamId')).input(AddTeamMemberInputSchema).output(TeamSchema),
  removeTeamMember: mutation(teamChange('teamId'))
    .input(RemoveTeamMemberInputSchema)
    .output(TeamSchema),
  getResourceAccess: query(teams).input(ResourceRefInputSchema).output(ResourceAccessSchema),
  /** Replaces a resource's team grants and team-only flag. */
  updateResourceAccess: mutation(teams)
    .input(UpdateResourceAccessInputSchema)
    .output(ResourceAccessSchema),

  /** Newest first, a page at a time, optionally from `before` back and of one `action`. */
  getAuditLog: query({ access: [authAccess.audit] })
    .input(GetAuditLogInputSchema)
    .output(AuditPageSchema),
});

export type AuthContract = typeof authContract;
