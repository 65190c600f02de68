import { describe, expect, it } from 'vitest';
import type { Me } from '../../api/access.ts';
import { mayManageTeam, mayOpenTeams } from './team-access.ts';

const me = (overrides: Partial<Me> = {}): Me => ({
  kind: 'user',
  id: 'u-1',
  accessRules: [],
  teamIds: [],
  isAdmin: false,
  name: 'Someone',
  email: 'someone@example.com',
  ...overrides,
});
const team = (members: { kind: 'user' | 'application'; id: string; manager: boolean }[]) => ({
  members,
});

describe('who may manage a team', () => {
  it.each([
    ['holds auth.teams.manage', me({ accessRules: ['auth.teams.manage'] }), [], true],
    ['is an admin', me({ isAdmin: true }), [], true],
    ['manages it', me(), [{ kind: 'user', id: 'u-1', manager: true }], true],
    ['is a plain member', me(), [{ kind: 'user', id: 'u-1', manager: false }], false],
    ['is not in it', me(), [{ kind: 'user', id: 'u-2', manager: true }], false],
    [
      'shares the id of a managing application',
      me(),
      [{ kind: 'application', id: 'u-1', manager: true }],
      false,
    ],
  ] as const)('a person who %s: %s', (_, person, members, expected) => {
    expect(mayManageTeam(person, team([...members]))).toBe(expected);
  });
});

describe('who may open the teams screen', () => {
  it.each([
    ['holds auth.teams.manage', me({ accessRules: ['auth.teams.manage'] }), true],
    ['is in a team', me({ teamIds: ['t-1'] }), true],
    ['has neither', me(), false],
  ] as const)('a person who %s: %s', (_, person, expected) => {
    expect(mayOpenTeams(person)).toBe(expected);
  });
});
