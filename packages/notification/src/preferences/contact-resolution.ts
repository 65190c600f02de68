import type { UserProfile } from '@checkline/auth';
import type { UserChannelSettings } from '../strategies/settings-store.ts';
import type { NotificationStrategy } from '@checkline/notification-node';

/** Where a strategy reaches one user, or why it cannot. */
export type ContactOutcome = { contact: string; externalId?: string } | { missing: string };

const missing = (why: string): ContactOutcome => ({ missing: `No contact: ${why}` });

const nonEmpty = (value: unknown): value is string =>
  typeof value === 'string' && value.trim().length > 0;

/**
 * The user's contact for `strategy`, by its contact resolution (seed: auth-email, auth-provider,
 * user-config, oauth-link, custom). Never throws for a user without a contact: the answer says
 * why, and the delivery is skipped with that reason. A custom resolver that throws counts as
 * finding none (its message is kept in the reason).
 */
export async function resolveContact(
  strategy: Pick<NotificationStrategy, 'contactResolution'>,
  profile: Pick<UserProfile, 'id' | 'email' | 'identities'>,
  channel: Pick<UserChannelSettings, 'config' | 'externalId'>,
  strategyConfig?: unknown,
): Promise<ContactOutcome> {
  const resolution = strategy.contactResolution;
  switch (resolution.type) {
    case 'auth-email':
      return nonEmpty(profile.email) ? { contact: profile.email } : missing('no account e-mail');
    case 'auth-provider': {
      const identity = profile.identities.find(
        (entry) => entry.provider === resolution.provider && nonEmpty(entry.email),
      );
      return identity?.email
        ? { contact: identity.email }
        : missing(`no ${resolution.provider} identity with an e-mail`);
    }
    case 'user-config': {
      const value = (channel.config as Record<string, unknown> | undefined)?.[resolution.field];
      return nonEmpty(value)
        ? { contact: value }
        : missing(`no user-config field ${resolution.field}`);
    }
    case 'oauth-link':
      return nonEmpty(channel.externalId)
        ? { contact: channel.externalId, externalId: channel.externalId }
        : missing('no linked account');
    case 'custom': {
      try {
        const contact = await resolution.resolve({
          userId: profile.id,
          userConfig: channel.config,
          strategyConfig,
        });
        return nonEmpty(contact) ? { contact } : missing('the strategy found none');
      } catch (error) {
        return missing(`the strategy's resolver failed: ${errorMessage(error)}`);
      }
    }
  }
}

export function errorMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1_000);
}
