import { pageInput, pageOf, principalKinds, timestampInput } from '@checkline/core/contract';
import { z } from 'zod';

const id = z.uuid();
const name = z.string().trim().min(1, 'Name must not be empty').max(200);
const description = z.string().max(5_000);
const timestamp = z.iso.datetime();
const timestampIn = timestampInput({ offset: false });
const email = z
  .email()
  .max(320)
  .transform((value) => value.toLowerCase());
/** A new password; the server also refuses common ones (see password-policy.ts). */
const password = z
  .string()
  .min(12, 'The password must have at least 12 characters')
  .max(1_024, 'The password must have at most 1024 characters');
/** An expiry: in the future when given; null (or absent) for never. */
const expiresAt = timestampIn
  .refine((value) => Date.parse(value) > Date.now(), 'The expiry must lie in the future')
  .nullable()
  .optional();
const accessRuleId = z
  .string()
  .regex(/^[a-z][a-z0-9-]*\.[a-z0-9_.-]+$/, 'An access rule is {pluginId}.{accessRuleId}');
const resourceType = z
  .string()
  .regex(/^[a-z][a-z0-9-]*\.[a-z][a-z0-9_-]*$/, 'A resource type is {pluginId}.{kind}');
const resourceId = z.string().min(1).max(200);

export const IdInputSchema = z.object({ id });
export const EmptyInputSchema = z.object({});
export const DeletedSchema = z.object({ id, deleted: z.literal(true) });

export const MeSchema = z.object({
  kind: z.enum(principalKinds),
  id: z.string().nullable(),
  accessRules: z.array(z.string()),
  teamIds: z.array(z.string()),
  isAdmin: z.boolean(),
  /** The user's or application's name. */
  name: z.string().nullable(),
  /** Users only. */
  email: z.string().nullable(),
});
MeSchema.register(z.globalRegistry, { id: 'Me' });
export type Me = z.infer<typeof MeSchema>;

export const RegistrationStatusSchema = z.object({ allowRegistration: z.boolean() });
RegistrationStatusSchema.register(z.globalRegistry, { id: 'RegistrationStatus' });
export type RegistrationStatus = z.infer<typeof RegistrationStatusSchema>;

export const LoginStrategySchema = z.object({
  /** The path segment of its routes: `/api/auth-backend/{id}/...`. */
  id: z.string(),
  displayName: z.string(),
  /** Where a browser goes to begin (a provider's redirect); null for a form (`custom`). */
  signInUrl: z.url().nullable(),
});
LoginStrategySchema.register(z.globalRegistry, { id: 'LoginStrategy' });
export type LoginStrategy = z.infer<typeof LoginStrategySchema>;

export const LoginStrategiesSchema = z.object({ strategies: z.array(LoginStrategySchema) });
LoginStrategiesSchema.register(z.globalRegistry, { id: 'LoginStrategies' });

export const UserSchema = z.object({
  id,
  email: z.string(),
  name: z.string(),
  roleIds: z.array(id),
  createdAt: timestamp,
  updatedAt: timestamp,
});
UserSchema.register(z.globalRegistry, { id: 'User' });
export type User = z.infer<typeof UserSchema>;

export const CreateUserInputSchema = z.object({
  email,
  name: z.string().trim().max(200).optional(),
  password,
  /** Default: the role `users`. */
  roleIds: z.array(id).max(100).optional(),
});
export type CreateUserInput = z.infer<typeof CreateUserInputSchema>;

export const UpdateUserInputSchema = z.object({
  id,
  email: email.optional(),
  name: z.string().trim().max(200).optional(),
  /** A new password also ends every session of the user. */
  password: password.optional(),
  /** Replaces the user's whole set of roles. */
  roleIds: z.array(id).max(100).optional(),
});
export type UpdateUserInput = z.infer<typeof UpdateUserInputSchema>;

export const ChangeMyPasswordInputSchema = z.object({
  currentPassword: z.string().min(1).max(1_024),
  /** At least 12 characters and not a common password; every other session of the caller ends. */
  newPassword: password,
});
export type ChangeMyPasswordInput = z.infer<typeof ChangeMyPasswordInputSchema>;

export const PasswordChangedSchema = z.object({ changed: z.literal(true) });

export const ApplicationSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  roleIds: z.array(id),
  teamIds: z.array(id),
  /** After this instant the key is refused; null: never. */
  expiresAt: timestamp.nullable(),
  /** Updated at most once a minute. */
  lastUsedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
ApplicationSchema.register(z.globalRegistry, { id: 'Application' });
export type Application = z.infer<typeof ApplicationSchema>;

export const CreateApplicationInputSchema = z.object({
  name,
  description: description.optional(),
  expiresAt,
});
export type CreateApplicationInput = z.infer<typeof CreateApplicationInputSchema>;

export const CreatedApplicationSchema = z.object({
  application: ApplicationSchema,
  /** `ck_{applicationId}_{randomSecret}`; shown this once, stored only as a hash. */
  secret: z.string(),
});
CreatedApplicationSchema.register(z.globalRegistry, { id: 'CreatedApplication' });

export const UpdateApplicationInputSchema = z.object({
  id,
  name: name.optional(),
  description: description.optional(),
  expiresAt,
  /** Replaces the application's whole set of roles (the checkboxes of the UI). */
  roleIds: z.array(id).max(100).optional(),
});
export type UpdateApplicationInput = z.infer<typeof UpdateApplicationInputSchema>;

/** The longest time a rotated-away key may keep working. */
export const MAX_GRACE_PERIOD_SECONDS = 7 * 24 * 60 * 60;

export const RegenerateSecretInputSchema = z.object({
  id,
  /** How long the old key keeps working; 0 (the default) ends it at once. */
  gracePeriodSeconds: z.int().min(0).max(MAX_GRACE_PERIOD_SECONDS).default(0),
});
export type RegenerateSecretInput = z.infer<typeof RegenerateSecretInputSchema>;

export const SecretSchema = z.object({ secret: z.string() });
SecretSchema.register(z.globalRegistry, { id: 'Secret' });

export const AccessRuleSchema = z.object({
  id: z.string(),
  pluginId: z.string(),
  description: z.string(),
});
AccessRuleSchema.register(z.globalRegistry, { id: 'AccessRule' });

export const RoleSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  /** admin, users, applications and anonymous: they cannot be renamed or deleted. */
  builtIn: z.boolean(),
  accessRules: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
});
RoleSchema.register(z.globalRegistry, { id: 'Role' });
export type Role = z.infer<typeof RoleSchema>;

export const CreateRoleInputSchema = z.object({
  name,
  description: description.optional(),
  accessRules: z.array(accessRuleId).max(1_000),
});
export type CreateRoleInput = z.infer<typeof CreateRoleInputSchema>;

export const UpdateRoleInputSchema = z.object({
  id,
  name: name.optional(),
  description: description.optional(),
  /** Replaces the role's whole set of rules. */
  accessRules: z.array(accessRuleId).max(1_000).optional(),
});
export type UpdateRoleInput = z.infer<typeof UpdateRoleInputSchema>;

export const TeamMemberSchema = z.object({
  kind: z.enum(['user', 'application']),
  id,
  manager: z.boolean(),
});
TeamMemberSchema.register(z.globalRegistry, { id: 'TeamMember' });
export type TeamMember = z.infer<typeof TeamMemberSchema>;

export const TeamSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  members: z.array(TeamMemberSchema),
  createdAt: timestamp,
  updatedAt: timestamp,
});
TeamSchema.register(z.globalRegistry, { id: 'Team' });
export type Team = z.infer<typeof TeamSchema>;

export const CreateTeamInputSchema = z.object({ name, description: description.optional() });
export type CreateTeamInput = z.infer<typeof CreateTeamInputSchema>;

export const UpdateTeamInputSchema = CreateTeamInputSchema.partial().extend({ id });
export type UpdateTeamInput = z.infer<typeof UpdateTeamInputSchema>;

const oneMember = {
  check: (input: { userId?: string; applicationId?: string }) =>
    (input.userId === undefined) !== (input.applicationId === undefined),
  message: { message: 'Give exactly one of userId and applicationId', path: ['userId'] },
};

export const RemoveTeamMemberInputSchema = z
  .object({ teamId: id, userId: id.optional(), applicationId: id.optional() })
  .refine(oneMember.check, oneMember.message);
export type RemoveTeamMemberInput = z.infer<typeof RemoveTeamMemberInputSchema>;

export const AddTeamMemberInputSchema = z
  .object({
    teamId: id,
    userId: id.optional(),
    applicationId: id.optional(),
    /** Managers may change the team. Default false; adding an existing member sets it. */
    manager: z.boolean().optional(),
  })
  .refine(oneMember.check, oneMember.message);
export type AddTeamMemberInput = z.infer<typeof AddTeamMemberInputSchema>;

export const GrantSchema = z.object({ teamId: id, access: z.enum(['read', 'manage']) });
GrantSchema.register(z.globalRegistry, { id: 'Grant' });
export type Grant = z.infer<typeof GrantSchema>;

export const ResourceRefInputSchema = z.object({ resourceType, resourceId });
export type ResourceRefInput = z.infer<typeof ResourceRefInputSchema>;

export const ResourceAccessSchema = z.object({
  resourceType: z.string(),
  resourceId: z.string(),
  /** Only teams with a grant (and admins) reach the resource; the global rule is not enough. */
  teamOnly: z.boolean(),
  grants: z.array(GrantSchema),
});
ResourceAccessSchema.register(z.globalRegistry, { id: 'ResourceAccess' });
export type ResourceAccessSettings = z.infer<typeof ResourceAccessSchema>;

export const UpdateResourceAccessInputSchema = ResourceRefInputSchema.extend({
  teamOnly: z.boolean().default(false),
  /** Replaces the resource's whole set of grants; one per team. */
  grants: z
    .array(GrantSchema)
    .max(200)
    .refine((grants) => new Set(grants.map((grant) => grant.teamId)).size === grants.length, {
      message: 'One grant per team',
    }),
});
export type UpdateResourceAccessInput = z.infer<typeof UpdateResourceAccessInputSchema>;

export const AuditEntrySchema = z.object({
  id,
  at: timestamp,
  actor: z.object({ kind: z.string(), id: z.string().nullable() }),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
AuditEntrySchema.register(z.globalRegistry, { id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const GetAuditLogInputSchema = z.object({
  /** Only entries older than this instant (where to start reading back from). */
  before: timestampIn.optional(),
  action: z.string().max(100).optional(),
  /** Only entries by this user or application. */
  actorId: z.string().max(200).optional(),
  ...pageInput,
});
export type GetAuditLogInput = z.infer<typeof GetAuditLogInputSchema>;

// Pages of the lists that grow with use (docs/api.md, "Lists and paging"); the input of each is `PageInputSchema`.
export const UserPageSchema = pageOf('users', UserSchema);
export type UserPage = z.infer<typeof UserPageSchema>;
export const ApplicationPageSchema = pageOf('applications', ApplicationSchema);
export type ApplicationPage = z.infer<typeof ApplicationPageSchema>;
export const RolePageSchema = pageOf('roles', RoleSchema);
export type RolePage = z.infer<typeof RolePageSchema>;
export const TeamPageSchema = pageOf('teams', TeamSchema);
export type TeamPage = z.infer<typeof TeamPageSchema>;
export const AuditPageSchema = pageOf('entries', AuditEntrySchema);
export type AuditPage = z.infer<typeof AuditPageSchema>;

export const MAX_PROFILE_IDS = 10_000;
export const GetUserProfilesInputSchema = z.object({
  userIds: z.array(id).max(MAX_PROFILE_IDS),
});
export const IdentitySchema = z.object({
  provider: z.string(),
  email: z.string().nullable(),
});
export const UserProfileSchema = z.object({
  id,
  email: z.string(),
  name: z.string(),
  isAdmin: z.boolean(),
  /** Every rule the user holds, as their principal would (the anonymous role's included). */
  accessRules: z.array(z.string()),
  teamIds: z.array(id),
  identities: z.array(IdentitySchema),
});
UserProfileSchema.register(z.globalRegistry, { id: 'UserProfile' });
export const UserProfilesSchema = z.object({ profiles: z.array(UserProfileSchema) });
export type GetUserProfilesInput = z.infer<typeof GetUserProfilesInputSchema>;

export const GetTeamUsersInputSchema = z.object({ teamIds: z.array(id).max(1_000) });
export const TeamUsersSchema = z.object({ id, userIds: z.array(id) });
export const TeamUsersListSchema = z.object({ teams: z.array(TeamUsersSchema) });
export type TeamUsers = z.infer<typeof TeamUsersSchema>;
export type UserProfile = z.infer<typeof UserProfileSchema>;

export const GetApplicationProfilesInputSchema = z.object({
  applicationIds: z.array(id).max(MAX_PROFILE_IDS),
});
export const ApplicationProfileSchema = z.object({
  id,
  name: z.string(),
  isAdmin: z.boolean(),
  /** Every rule the application holds, as its principal would (the anonymous role's included). */
  accessRules: z.array(z.string()),
  teamIds: z.array(id),
});
ApplicationProfileSchema.register(z.globalRegistry, { id: 'ApplicationProfile' });
export const ApplicationProfilesSchema = z.object({ profiles: z.array(ApplicationProfileSchema) });
export type ApplicationProfile = z.infer<typeof ApplicationProfileSchema>;
