import type { ErrorCode } from './errors.ts';
import { errorStatus } from './errors.ts';

/**
 * The errors a procedure's handler raises itself, for its contract's `.errors()`:
 * `.errors(raises('NOT_FOUND', 'CONFLICT'))`. `@orpc/client` then types them (`isDefinedError`)
 * and the API reference lists them. What the access metadata already implies (UNAUTHORIZED,
 * FORBIDDEN from rules and principals, NOT_FOUND of a `resource` or `attachedTo` id) and what
 * every procedure may answer (BAD_REQUEST, TOO_MANY_REQUESTS, INTERNAL_SERVER_ERROR,
 * SERVICE_UNAVAILABLE) is derived and not declared here.
 */
export function raises<const C extends ErrorCode>(
  ...codes: C[]
): { [K in C]: { status: (typeof errorStatus)[K] } } {
  return Object.fromEntries(codes.map((code) => [code, { status: errorStatus[code] }])) as {
    [K in C]: { status: (typeof errorStatus)[K] };
  };
}
