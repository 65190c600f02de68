import { defineAccessRules } from '@checkline/core/contract';

export const authAccess = defineAccessRules('auth', {
  applications: [
    'applications.manage',
    'Create, change, rotate and delete external applications and their keys',
  ],
  roles: ['roles.manage', 'Create, change and delete roles; see every access rule'],
  teams: ['teams.manage', 'Create, change and delete teams, their members and resource grants'],
  users: ['users.manage', 'Create and change users and their roles; allow or stop sign-up'],
  audit: ['audit.read', 'Read the audit log'],
});

/** Resource type of a team: its managers may change it without `auth.teams.manage`. */
export const TEAM_RESOURCE = 'auth.team';

/** Roles that always exist; their names are part of the wire contract (clients look them up by name). */
export const builtInRoles = {
  /** Holds every access rule, always; cannot be narrowed or deleted. */
  admin: 'admin',
  /** Given to every new user. */
  users: 'users',
  /** Given to every new application. */
  applications: 'applications',
  /**
   * What a person needs to hear about alerts: created holding every rule marked `subscriber` (the
   * reads alerts are about, channels' use, subscribing); administrators may change it afterwards.
   */
  subscriber: 'subscriber',
  /** Its rules are open to callers without credentials. */
  anonymous: 'anonymous',
} as const;

export type BuiltInRole = keyof typeof builtInRoles;
