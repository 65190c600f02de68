import type { ApplicationProfile, UserProfile } from '@checkline/auth';
import { describe, expect, it } from 'vitest';
import type { RegisteredStrategy } from '../strategies/registry.ts';
import type { StrategySettings, UserChannelSettings } from '../strategies/settings-store.ts';
import { testStrategy } from '../testing/test-strategy.ts';
import { urlHookFields } from '../testing/url-hook.ts';
import type { EligibilityInput } from './eligibility.ts';
import { eligibility } from './eligibility.ts';
import type { Recipient } from './recipients.ts';

/**
 * A webhook-like channel: a recipient's own URL, else the administrator's fallback URL (what
 * the custom resolver answers), and whether it reaches applications.
 */
function hookChannel(reachesApplications: boolean): RegisteredStrategy {
  return {
    ...testStrategy(urlHookFields(reachesApplications)),
    qualifiedId: 'channels.hook',
    ownerPluginId: 'channels',
  };
}

const USE_RULE = 'channels.strategy.hook.use';
const settings: StrategySettings = {
  enabled: true,
  configured: true,
  config: { url: 'https://fallback.example/hook' },
  layoutConfig: undefined,
  problems: [],
};
const channel = (config: unknown): UserChannelSettings => ({
  setUp: config !== undefined,
  enabled: true,
  config,
  externalId: null,
  linkedAt: null,
  problems: [],
});
const application = (accessRules: string[]): ApplicationProfile => ({
  id: 'a0f0c0de-0000-4000-8000-000000000001',
  name: 'Integrator',
  isAdmin: false,
  accessRules,
  teamIds: [],
});
const user: UserProfile = {
  id: 'a0f0c0de-0000-4000-8000-000000000002',
  email: 'ana@example.com',
  name: 'Ana',
  isAdmin: false,
  accessRules: [USE_RULE],
  teamIds: [],
  identities: [],
};

const decide = (recipient: Recipient, overrides: Partial<EligibilityInput> = {}) =>
  eligibility({
    strategy: hookChannel(true),
    settings,
    recipient,
    channel: channel({ url: 'https://own.example/hook' }),
    transactional: false,
    named: true,
    ...overrides,
  });

describe('eligibility of an application', () => {
  describe('works', () => {
    it('reaches an application at the URL it set itself', async () => {
      await expect(
        decide({ kind: 'application', profile: application([USE_RULE]) }),
      ).resolves.toEqual({ send: true, contact: { contact: 'https://own.example/hook' } });
    });

    it('never falls back to the administrator’s URL for an application, as it does for a person', async () => {
      const none = { channel: channel(undefined) };
      await expect(
        decide({ kind: 'application', profile: application([USE_RULE]) }, none),
      ).resolves.toEqual({
        send: false,
        skip: 'No contact: the application has set none for this channel',
      });
      await expect(decide({ kind: 'user', profile: user }, none)).resolves.toEqual({
        send: true,
        contact: { contact: 'https://fallback.example/hook' },
      });
    });
  });

  describe('refuses the wrong recipient', () => {
    it('skips a deleted application with the reason', async () => {
      await expect(decide({ kind: 'application', profile: undefined })).resolves.toEqual({
        send: false,
        skip: 'No such application',
      });
    });

    it('does not reach an application through a channel that does not reach applications', async () => {
      const recipient: Recipient = { kind: 'application', profile: application([USE_RULE]) };
      await expect(decide(recipient, { strategy: hookChannel(false) })).resolves.toEqual({
        send: false,
        skip: 'Channel channels.hook does not reach applications',
      });
      await expect(
        decide(recipient, { strategy: hookChannel(false), named: false }),
      ).resolves.toEqual({ send: false, omit: true });
    });

    it('needs the channel’s use rule, as a person does', async () => {
      await expect(decide({ kind: 'application', profile: application([]) })).resolves.toEqual({
        send: false,
        skip: `Missing access: ${USE_RULE}`,
      });
    });
  });
});
