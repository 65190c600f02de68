import type { AuthStrategyContext, StrategyUser } from '../strategy.ts';
import { AuthStrategyError } from '../strategy.ts';

/** Who the provider says signed in. */
export interface ProviderProfile {
  /** The provider's stable id of the account (`sub`). */
  subject: string;
  /** Only an e-mail the provider says it verified; anything else is null. */
  verifiedEmail: string | null;
  name?: string | undefined;
}

const NO_VERIFIED_EMAIL = 'Your account at the sign-in provider has no verified e-mail address';

/**
 * The user a provider's account signs in as: the one it signed in as before (by subject), else
 * the user with its verified e-mail, else a new user while registration is allowed. The identity
 * is recorded with the verified e-mail (or none), so notification contacts read it.
 */
export async function userForProfile(
  context: AuthStrategyContext,
  provider: string,
  profile: ProviderProfile,
): Promise<StrategyUser> {
  const email = profile.verifiedEmail;
  let user =
    (await context.findUserByIdentity(provider, profile.subject)) ??
    (email === null ? undefined : await context.findUserByEmail(email));
  if (!user) {
    if (email === null) throw new AuthStrategyError(NO_VERIFIED_EMAIL);
    if (!(await context.registrationAllowed())) {
      throw new AuthStrategyError('Registration is disabled');
    }
    // Undefined when the e-mail was taken meanwhile: that user is the match.
    user =
      (await context.createUser({ email, ...(profile.name && { name: profile.name }) })) ??
      (await context.findUserByEmail(email));
    if (!user) throw new Error('The user created for a provider sign-in is not found');
  }
  await context.recordIdentity({
    userId: user.id,
    provider,
    subject: profile.subject,
    email,
  });
  return user;
}

/** The profile in an ID token's (or userinfo's) claims; an unverified e-mail is dropped. */
export function profileOf(claims: Record<string, unknown> & { sub: string }): ProviderProfile {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  const verified = claims.email_verified === true && email.length > 0 && email.length <= 320;
  const name = typeof claims.name === 'string' ? claims.name.trim().slice(0, 200) : '';
  return {
    subject: claims.sub,
    verifiedEmail: verified ? email : null,
    ...(name && { name }),
  };
}
