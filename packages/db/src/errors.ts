/** True when a database error is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

function sqlState(error: unknown): string | undefined {
  for (let current = error; current && typeof current === 'object';) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Failures that mean the database cannot be reached right now (as opposed to a statement that
 * is wrong): the driver's connection errors, the network's, and PostgreSQL's connection and
 * shutdown classes. Callers answer SERVICE_UNAVAILABLE and try again later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const code of errorCodes(error)) {
    if (unavailableCodes.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

const unavailableCodes = new Set([
  // postgres-js
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  // the network
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: statement timeout, shutting down, starting up, out of connections
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

function* errorCodes(error: unknown): Generator<string> {
  for (
    let current = error, depth = 0;
    current && typeof current === 'object' && depth < 10;
    depth++
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') yield code;
    current = (current as { cause?: unknown }).cause;
  }
}

/** Fields of a driver error that carry bound values or row data. */
const valueFields = new Set([
  'params',
  'parameters',
  'args',
  'types',
  'detail',
  'where',
  'internal_query',
]);

/**
 * A copy of an error fit for a log: the SQL text stays, every bound parameter and row value is
 * gone. drizzle's `DrizzleQueryError` puts the parameters in `params` and in its message;
 * postgres-js puts them in `parameters`/`args`, and PostgreSQL quotes a rejected value in the
 * message (`invalid input syntax for type integer: "..."`) and row data in `detail`. Applied to
 * the whole `cause` chain; anything that is not an Error passes through unchanged.
 */
export function redactDatabaseError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 10) return error;
  const fields = error as Error & Record<string, unknown>;
  const message = safeMessage(fields);
  const copy = new Error(message) as Error & Record<string, unknown>;
  copy.name = error.name;
  copy.stack = error.stack?.replace(error.message, message);
  for (const key of Object.keys(error)) {
    if (!valueFields.has(key) && key !== 'cause') copy[key] = fields[key];
  }
  if (error.cause !== undefined) copy.cause = redactDatabaseError(error.cause, depth + 1);
  return copy;
}

function safeMessage(error: Error & Record<string, unknown>): string {
  // First: PGlite's own errors carry `query` and `params` too, and their message is the reason.
  if (typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code)) {
    return error.message.replace(/: ".*"/s, ': "[redacted]"');
  }
  if (Array.isArray(error.params) && typeof error.query === 'string') {
    return `Failed query: ${error.query}`;
  }
  return error.message;
}

/**
 * Runs `write`; a unique-constraint violation becomes the error `taken` makes (a CONFLICT naming
 * what is taken), anything else is thrown as it is.
 */
export async function uniqueOr<T>(write: () => Promise<T>, taken: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}
