import { safeReturnPath } from '@checkline/net';
import { anonymousPrincipal } from '@checkline/core/contract';
import type { RouteMeta } from '@checkline/core';
import { ORPCError } from '@orpc/contract';
import { recordAudit } from '../audit.ts';
import { readCookie, SESSION_COOKIE, sessionCookie } from '../cookies.ts';
import { redirectToError } from '../error-redirect.ts';
import { passwordProblem } from '../password-policy.ts';
import { findUserByIdentity, recordIdentity } from '../identities.ts';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../password.ts';
import type { PasswordAttempt } from '../rate-limit.ts';
import { clientIp } from '../rate-limit.ts';
import { builtInRoleId } from '../rbac.ts';
import { isRegistrationAllowed } from '../registration.ts';
import {
  createSession,
  deleteSession,
  hashSessionToken,
  isWellFormedSessionToken,
} from '../sessions.ts';
import type { AuthState } from '../state.ts';
import { createUser, findUserByEmail } from '../users.ts';
import type { AuthStrategyContext, StrategyUser } from './strategy.ts';
import { AuthStrategyError } from './strategy.ts';

/** Copies only what a strategy may see: a user row also holds the password hash. */
const toStrategyUser = (user: StrategyUser): StrategyUser => ({
  id: user.id,
  email: user.email,
  name: user.name,
});

/** A rate-limit refusal as the error page shows it, with `Retry-After`. */
export function tooManyAttempts(error: unknown): AuthStrategyError | undefined {
  if (!(error instanceof ORPCError) || error.code !== 'TOO_MANY_REQUESTS') return undefined;
  const retryAfter = (error.data as { retryAfter?: number } | undefined)?.retryAfter ?? 60;
  return new AuthStrategyError('Too many failed attempts, try again later', {
    'retry-after': String(retryAfter),
  });
}

/** Ends the session the request presents, if any: at logout, and before a new sign-in. */
export async function endPresentedSession(state: AuthState, request: Request): Promise<void> {
  const token = readCookie(request, SESSION_COOKIE);
  if (!token || !isWellFormedSessionToken(token)) return;
  const hash = hashSessionToken(token);
  const userId = await deleteSession(state.db, hash);
  state.authenticator.forgetSession(hash);
  // Other processes hear only whose session ended (no token hash travels): they drop the user's.
  if (userId) await state.invalidateNow(state.db, { kind: 'user', id: userId });
}

/** The plugin's services, bound to one request, as a strategy uses them. */
export function strategyContext(
  state: AuthState,
  request: Request,
  params: Record<string, string>,
  meta: RouteMeta,
): AuthStrategyContext {
  const { config } = state;
  const address = clientIp(request, config.trustProxy);
  /** A password try for `email` from this request: its address, and its device if known. */
  const attemptOn = (email: string): PasswordAttempt => {
    const device = state.deviceCookies.knownDevice(request, email);
    return { account: email, address, ...(device && { device }) };
  };
  /** The account whose password this request proved: the device is known to it from now on. */
  let provedAccount: string | undefined;
  return {
    request,
    params,
    requestId: meta.requestId,
    logger: meta.logger,
    frontendUrl: config.frontendUrl,
    baseUrl: config.baseUrl,
    secureCookies: config.secureCookie,
    fail: (message) => redirectToError(message, config.frontendUrl),
    async signIn(userId, options = {}) {
      const path =
        options.redirectTo === undefined ? undefined : safeReturnPath(options.redirectTo);
      if (options.redirectTo !== undefined && path === undefined) {
        throw new AuthStrategyError('Invalid return path');
      }
      await endPresentedSession(state, request);
      const token = await createSession(state.db, userId, config.sessions);
      const headers = new Headers({ 'cache-control': 'no-store' });
      headers.append(
        'set-cookie',
        sessionCookie(token, {
          secure: config.secureCookie,
          maxAgeSeconds: config.sessions.maxAgeSeconds,
        }),
      );
      if (provedAccount !== undefined) {
        headers.append('set-cookie', state.deviceCookies.issue(provedAccount));
      }
      if (path === undefined) return Response.json({ success: true }, { headers });
      headers.set('location', `${config.frontendUrl}${path}`);
      return new Response(null, { status: 302, headers });
    },
    async findUserByEmail(email) {
      const user = await findUserByEmail(state.db, email);
      return user && toStrategyUser(user);
    },
    async findUserByIdentity(provider, subject) {
      const user = await findUserByIdentity(state.db, provider, subject);
      return user && toStrategyUser(user);
    },
    async verifyCredentials(email, password) {
      try {
        await state.limits.assertMayTryPassword(attemptOn(email));
      } catch (error) {
        throw tooManyAttempts(error) ?? error;
      }
      const user = await findUserByEmail(state.db, email);
      if (!user?.passwordHash) return verifyAgainstDecoy(password).then(() => undefined);
      if (!(await verifyPassword(password, user.passwordHash))) return undefined;
      provedAccount = email;
      return toStrategyUser(user);
    },
    registrationAllowed: () => isRegistrationAllowed(state.db),
    async createUser(input) {
      const problem = input.password === undefined ? undefined : passwordProblem(input.password);
      if (problem) throw new AuthStrategyError(problem);
      // Hashed whether or not the e-mail is taken, so both answers take as long.
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
      return state.db.transaction(async (db) => {
        if (!(await isRegistrationAllowed(db)))
          throw new AuthStrategyError('Registration is disabled');
        if (await findUserByEmail(db, input.email)) return undefined;
        const user = await createUser(db, {
          email: input.email,
          name: input.name,
          passwordHash,
          roleIds: [await builtInRoleId(db, 'users')],
        });
        await recordAudit(
          db,
          anonymousPrincipal(),
          'user.created',
          { type: 'user', id: user.id },
          {
            email: user.email,
            via: 'sign-up',
          },
        );
        return toStrategyUser(user);
      });
    },
    recordIdentity: (identity) => recordIdentity(state.db, identity),
    async recordFailure(account) {
      try {
        const password = account === undefined ? undefined : attemptOn(account);
        await state.limits.recordFailure({ address, ...(password && { password }) });
      } catch (error) {
        throw tooManyAttempts(error) ?? error;
      }
    },
  };
}
