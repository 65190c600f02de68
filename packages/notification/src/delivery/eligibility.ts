import type { ContactOutcome } from '../preferences/contact-resolution.ts';
import { resolveContact } from '../preferences/contact-resolution.ts';
import type { RegisteredStrategy } from '../strategies/registry.ts';
import { mayUseStrategy, useRuleOf } from '../strategies/registry.ts';
import type { StrategySettings, UserChannelSettings } from '../strategies/settings-store.ts';
import type { Recipient } from './recipients.ts';

/** Whether one recipient is reached through one strategy now, and if not, whether the log says why. */
export type Eligibility =
  | { send: true; contact: Extract<ContactOutcome, { contact: string }> }
  /** A `skipped` delivery with this reason. */
  | { send: false; skip: string }
  /** No delivery at all (an unnamed channel the recipient cannot or does not want to use). */
  | { send: false; omit: true };

export interface EligibilityInput {
  strategy: RegisteredStrategy;
  settings: StrategySettings;
  /** A user or an application, with its profile undefined when the auth plugin knows none. */
  recipient: Recipient;
  /** The recipient's own settings for the strategy (an application's are kept like a user's). */
  channel: UserChannelSettings;
  /** Sent whatever the user's own switch says (never past the strategy's enablement or a contact). */
  transactional: boolean;
  /**
   * The caller named this strategy (or the delivery exists already): every refusal is a skipped
   * delivery with its reason. Otherwise channels the user may not or does not use are omitted.
   */
  named: boolean;
}

const NO_SUCH = { user: 'No such user', application: 'No such application' } as const;

/** Where an application is reached: only at the settings it stored itself. */
const APPLICATION_CONTACT_MISSING: ContactOutcome = {
  missing: 'No contact: the application has set none for this channel',
};

/**
 * A channel reaches a user who holds its `.use` rule (or is an admin), that an
 * administrator has enabled and configured, that the user has not switched off (unless
 * transactional), and through which the user has a contact. A missing contact is a skipped
 * delivery when the channel was named or the user has set it up; a channel the user never set up
 * (no stored settings) and not named is omitted. An application is reached the same way, but
 * only through a channel that reaches applications, and only at the settings it stored itself
 * (never an administrator's fallback address).
 */
export async function eligibility(input: EligibilityInput): Promise<Eligibility> {
  const { strategy, settings, recipient, channel } = input;
  const refuse = (reason: string): Eligibility =>
    input.named ? { send: false, skip: reason } : { send: false, omit: true };
  if (!recipient.profile) return refuse(NO_SUCH[recipient.kind]);
  if (recipient.kind === 'application' && strategy.reachesApplications !== true) {
    return refuse(`Channel ${strategy.qualifiedId} does not reach applications`);
  }
  if (!mayUseStrategy(recipient.profile, strategy)) {
    return refuse(`Missing access: ${useRuleOf(strategy)}`);
  }
  if (!settings.enabled) return refuse('Channel disabled by an administrator');
  if (!settings.configured) return refuse('Channel not configured by an administrator');
  if (!input.transactional && !channel.enabled) {
    return refuse(`Channel disabled by the ${recipient.kind}`);
  }
  const contact =
    recipient.kind === 'user'
      ? await resolveContact(strategy, recipient.profile, channel, settings.config)
      : channel.config === undefined
        ? APPLICATION_CONTACT_MISSING
        : await resolveContact(
            strategy,
            { id: recipient.profile.id, email: '', identities: [] },
            channel,
            settings.config,
          );
  // A channel the user never set up is not theirs: no row, rather than one per alert and user.
  if ('missing' in contact && !input.named && !channel.setUp) return { send: false, omit: true };
  if ('missing' in contact) return { send: false, skip: contact.missing };
  return { send: true, contact };
}
