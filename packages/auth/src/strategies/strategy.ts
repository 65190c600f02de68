import type { Logger } from '@checkline/core';
import { createExtensionPoint } from '@checkline/core';

/** A user as strategies see it; the password hash stays inside the auth plugin. */
export interface StrategyUser {
  id: string;
  email: string;
  name: string;
}

/** What the auth plugin gives a strategy for one request. */
export interface AuthStrategyContext {
  request: Request;
  /** The `:action` path segment and any other route parameters. */
  params: Record<string, string>;
  requestId: string;
  logger: Logger;
  /** Where the error page lives: the only redirect target. */
  frontendUrl: string;
  /** The public address of the API, for callback URLs (`{baseUrl}/api/auth-backend/...`). */
  baseUrl: string;
  /** Whether cookies a strategy sets must be `Secure` (the API is served over https). */
  secureCookies: boolean;
  /** A 302 to `{frontendUrl}/auth/error?error=<message>`; `message` is shown to the user. */
  fail(message: string): Response;
  /**
   * Starts a session: 200 `{ success: true }` with the session cookie, or with `redirectTo` (a
   * relative path, else {@link AuthStrategyError}) a 302 to that path on the frontend. The
   * session the request presented, if any, ends.
   */
  signIn(userId: string, options?: { redirectTo?: string }): Promise<Response>;
  findUserByEmail(email: string): Promise<StrategyUser | undefined>;
  /** The user `provider` knows as `subject`, as {@link recordIdentity} recorded it. */
  findUserByIdentity(provider: string, subject: string): Promise<StrategyUser | undefined>;
  /**
   * The user when the password is theirs; every miss costs as long as a hit. Throws
   * TOO_MANY_REQUESTS, before checking, while the budget this client counts against for the
   * account is spent (its device's, for a device that signed in to it before). A later
   * {@link signIn} of this request also marks the device as known to the account.
   */
  verifyCredentials(email: string, password: string): Promise<StrategyUser | undefined>;
  registrationAllowed(): Promise<boolean>;
  /**
   * Creates a user with the role `users`; a password must pass the password policy. Throws
   * {@link AuthStrategyError} `Registration is disabled` when sign-up is off, or with the
   * policy's message. Answers undefined, and creates nothing, when the e-mail is taken (the
   * strategy must answer as it does on success, so sign-up does not reveal who has an account).
   */
  createUser(user: {
    email: string;
    name?: string;
    password?: string;
  }): Promise<StrategyUser | undefined>;
  /**
   * Records that `provider` (this strategy, or the login provider it speaks for) knows the user
   * as `subject`, with the e-mail it holds; other plugins read it (notification contacts). Throws
   * when that account is already tied to another user.
   */
  recordIdentity(identity: {
    userId: string;
    provider: string;
    subject: string;
    email?: string | null;
  }): Promise<void>;
  /**
   * Counts a failed sign-in against the client address and, given its e-mail, the account (for
   * a device that signed in to that account before, that device instead); throws
   * {@link AuthStrategyError} past a budget.
   */
  recordFailure(account?: string): Promise<void>;
}

export interface AuthStrategyAction {
  method: 'GET' | 'POST';
  handle(context: AuthStrategyContext): Promise<Response>;
  /** The OpenAPI operation the API reference shows for this action (summary, body, answers). */
  openapi?: Record<string, unknown>;
}

/** A way of signing in, served at `{base_url}/api/auth-backend/{id}/{action}`. */
export interface AuthStrategy {
  /** Lowercase; unique across plugins, since it is a path segment. */
  id: string;
  displayName: string;
  /**
   * The GET action a browser is sent to to begin signing in, for strategies that redirect to a
   * provider; strategies with a form of their own (e-mail and password) have none.
   */
  start?: string;
  actions: Record<string, AuthStrategyAction>;
}

/**
 * Thrown by a strategy to send the user to the error page with `message` (user-facing text).
 * Anything else a strategy throws becomes a generic message; details go only to the log.
 */
export class AuthStrategyError extends Error {
  constructor(
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface AuthStrategyRegistrar {
  register(strategy: AuthStrategy): void;
}

/**
 * Where plugins add sign-in strategies, during the register phase:
 * `extensionPoints.get(authStrategyExtensionPoint, pluginId).register(strategy)`.
 */
export const authStrategyExtensionPoint =
  createExtensionPoint<AuthStrategyRegistrar>('auth.strategies');
