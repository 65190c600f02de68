import { ORPCError } from '@orpc/contract';

/** Every error code of the wire contract and its HTTP status (docs/api.md, "Calling the API"). */
export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorStatus, code);
}

/** One problem with the input: where (dot path, '' for the root) and what. */
export interface InputIssue {
  path: string;
  message: string;
}

export interface AppErrorData {
  issues?: InputIssue[];
  /** Seconds until a rate-limited caller may try again. */
  retryAfter?: number;
}

/** The error every plugin throws: an oRPC error whose status comes from the table above. */
export function appError(code: ErrorCode, message: string, data?: AppErrorData) {
  return new ORPCError(code, { status: errorStatus[code], message, data });
}

export const notFound = (what: string, id?: string) =>
  appError('NOT_FOUND', id === undefined ? `${what} not found` : `${what} ${id} not found`);

export const conflict = (message: string) => appError('CONFLICT', message);

export const badRequest = (message: string, issues?: InputIssue[]) =>
  appError('BAD_REQUEST', message, issues ? { issues } : undefined);

/** TOO_MANY_REQUESTS with the seconds to wait, which the server sends as `Retry-After`. */
export function tooManyRequests(msBeforeNext: number) {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return appError('TOO_MANY_REQUESTS', `Too many requests; try again in ${retryAfter} s`, {
    retryAfter,
  });
}

export const missingAccess = (rule: string) => appError('FORBIDDEN', `Missing access: ${rule}`);

export const unauthorized = (message = 'Authentication required') =>
  appError('UNAUTHORIZED', message);
