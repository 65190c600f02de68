import { badRequest, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './password.ts';
import { assertAcceptablePassword } from './password-policy.ts';
import type { RateLimits } from './rate-limit.ts';
import type { ChangeMyPasswordInput } from './schemas.ts';
import { deleteOtherUserSessions } from './sessions.ts';
import { findUserRow, updateUser } from './users.ts';

/**
 * A person's change of their own password. A wrong current password counts against the
 * account's failed-login budget, so a stolen session cannot guess it faster than a sign-in could.
 * Answers how many other sessions ended; the one in `keepTokenHash` stays.
 */
export async function changeOwnPassword(
  db: Database,
  limits: RateLimits,
  userId: string,
  input: ChangeMyPasswordInput,
  keepTokenHash: string | undefined,
): Promise<{ endedSessions: number }> {
  const user = await findUserRow(db, userId);
  if (!user) throw notFound('User', userId);
  await limits.assertMayTryPassword({ account: user.email });
  const matches = user.passwordHash
    ? await verifyPassword(input.currentPassword, user.passwordHash)
    : await verifyAgainstDecoy(input.currentPassword);
  if (!matches) {
    await limits.recordFailure({ password: { account: user.email } });
    throw badRequest('The current password is not correct', [
      { path: 'currentPassword', message: 'The current password is not correct' },
    ]);
  }
  assertAcceptablePassword(input.newPassword, 'newPassword');
  await updateUser(db, userId, { passwordHash: await hashPassword(input.newPassword) });
  return { endedSessions: await deleteOtherUserSessions(db, userId, keepTokenHash) };
}
