import { z } from 'zod';
import { isJsonRequest } from '../csrf.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../password-policy.ts';
import type { AuthStrategy, AuthStrategyContext } from './strategy.ts';
import { AuthStrategyError } from './strategy.ts';
import { successContent } from './openapi.ts';

const INVALID_CREDENTIALS = 'Invalid username or password';

async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  // A form on another site cannot send application/json without the browser asking us first.
  if (isJsonRequest(request)) {
    const body: unknown = await request.json().catch(() => undefined);
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      return body as Record<string, unknown>;
    }
  }
  throw new AuthStrategyError('Invalid request');
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

async function login(context: AuthStrategyContext): Promise<Response> {
  const { username, password } = await readJsonObject(context.request);
  if (!nonEmpty(username) || !nonEmpty(password)) {
    return context.fail('Username and password are required');
  }
  const plausible = username.length <= 320 && password.length <= 1_024;
  const user = plausible ? await context.verifyCredentials(username, password) : undefined;
  if (!user) {
    await context.recordFailure(plausible ? username : undefined);
    return context.fail(INVALID_CREDENTIALS);
  }
  return context.signIn(user.id);
}

const SignUpSchema = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1_024),
  name: z.string().trim().max(200).optional(),
});

/**
 * Creates the account and answers `{ success: true }` without signing in: the same answer, in
 * about the same time, whether or not the e-mail already had an account, so sign-up does not
 * tell who has one. The person signs in next.
 */
async function signUp(context: AuthStrategyContext): Promise<Response> {
  if (!(await context.registrationAllowed())) return context.fail('Registration is disabled');
  const body = await readJsonObject(context.request);
  const parsed = SignUpSchema.safeParse({ ...body, email: body.email ?? body.username });
  if (!parsed.success) {
    return context.fail('A valid e-mail address and a password are required');
  }
  await context.createUser(parsed.data);
  return Response.json({ success: true }, { headers: { 'cache-control': 'no-store' } });
}

const signedIn = {
  description: 'Signed in: the session cookie is set.',
  headers: {
    'Set-Cookie': {
      description: '`checkline_session`: HttpOnly, SameSite=Lax, Secure under https.',
      schema: { type: 'string' },
    },
  },
  content: successContent,
};

const toErrorPage = {
  description:
    'Any failure: a redirect to `{FRONTEND_URL}/auth/error?error=<message>` (spaces as underscores), never JSON.',
  headers: {
    Location: {
      description: 'The error page.',
      schema: { type: 'string', format: 'uri' },
      example: 'http://localhost:3000/auth/error?error=Invalid_username_or_password',
    },
  },
};

const jsonBody = (properties: Record<string, unknown>, required: string[], example: object) => ({
  required: true,
  content: {
    'application/json': { schema: { type: 'object', required, properties }, example },
  },
});

const loginOperation = {
  summary: 'Signs in with e-mail and password and sets the session cookie.',
  description:
    'Too many failures answer with the error page and `Retry-After`: failures count per address, and per account and (account, address) unless the browser holds a device cookie (`checkline_device`, set with the session) of this account, which has a budget of its own. From a browser, `Origin` must be the server or the web UI.',
  requestBody: jsonBody(
    { username: { type: 'string', format: 'email' }, password: { type: 'string' } },
    ['username', 'password'],
    { username: 'admin@example.com', password: 'correct horse battery staple' },
  ),
  responses: { '200': signedIn, '302': toErrorPage },
};

const signUpOperation = {
  summary: 'Creates a user while registration is allowed; sign in with login next.',
  description: `Sets no session: the new user signs in with \`POST .../custom/login\`. The password follows the policy (at least ${MIN_PASSWORD_LENGTH} characters, not a common password). Answers with the error page (\`Registration is disabled\`) while \`getRegistrationStatus\` says no. \`email\` may be sent as \`username\`.`,
  requestBody: jsonBody(
    {
      email: { type: 'string', format: 'email' },
      password: {
        type: 'string',
        minLength: MIN_PASSWORD_LENGTH,
        maxLength: MAX_PASSWORD_LENGTH,
      },
      name: { type: 'string', maxLength: 200 },
    },
    ['email', 'password'],
    { email: 'ann@example.com', password: 'correct horse battery staple', name: 'Ann Lee' },
  ),
  responses: {
    '200': {
      description:
        'The account exists (made now, or it already did: the answer does not tell); no session is set.',
      content: successContent,
    },
    '302': toErrorPage,
  },
};

/**
 * Sign-in with e-mail and password, and sign-up when registration is allowed. Its id is `custom`
 * because clients rely on its fixed path: `POST /api/auth-backend/custom/login` (and `.../signup`).
 */
export const credentialStrategy: AuthStrategy = {
  id: 'custom',
  displayName: 'E-mail and password',
  actions: {
    login: { method: 'POST', handle: login, openapi: loginOperation },
    signup: { method: 'POST', handle: signUp, openapi: signUpOperation },
  },
};
