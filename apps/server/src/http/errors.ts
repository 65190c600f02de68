import { errorStatus, isErrorCode } from '@checkline/core';
import type { ErrorCode, InputIssue, Logger } from '@checkline/core';
import { DISK_FULL_MESSAGE, isDatabaseUnavailable, noteDiskFull, rootCauseOf } from '@checkline/db';
import { ORPCError, ValidationError } from '@orpc/server';

/** The error object of every surface: one shape, so clients parse one thing. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  procedure?: string;
  issues?: InputIssue[];
  requestId?: string;
}

type IssuePath = readonly (PropertyKey | { key: PropertyKey })[] | undefined;

function issuePath(path: IssuePath): string {
  return (path ?? [])
    .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
    .join('.');
}

interface ValidationIssue {
  path?: IssuePath;
  message: string;
  code?: string;
  keys?: readonly string[];
  /** A union's issues, branch by branch, with paths from the union. */
  errors?: readonly (readonly ValidationIssue[])[];
}

const joinPath = (parent: string, child: string) =>
  parent && child ? `${parent}.${child}` : parent || child;

/** The fields no form of a union knows: unknown to every branch. */
function unknownToEveryBranch(branches: readonly (readonly ValidationIssue[])[]): string[] {
  const unknownPaths = branches.map(
    (issues) =>
      new Set(
        issues.flatMap(inputIssuesOf).flatMap((issue) => (issue.unknown ? [issue.path] : [])),
      ),
  );
  const [first, ...rest] = unknownPaths;
  return [...(first ?? [])].filter((path) => rest.every((paths) => paths.has(path)));
}

const unknownFieldIssue = (path: string) => ({
  path,
  message: `Unknown field ${path.split('.').at(-1)}: not part of this procedure's input`,
  unknown: true as const,
});

/** One issue per unknown key, at the key's own path, so the answer names the field refused. */
function inputIssuesOf(issue: ValidationIssue): (InputIssue & { unknown?: true })[] {
  const path = issuePath(issue.path);
  if (issue.code === 'unrecognized_keys' && issue.keys) {
    return issue.keys.map((key) => unknownFieldIssue(joinPath(path, key)));
  }
  if (issue.code === 'invalid_union' && issue.errors?.length) {
    const unknown = unknownToEveryBranch(issue.errors);
    return [
      { path, message: issue.message },
      ...unknown.map((child) => unknownFieldIssue(joinPath(path, child))),
    ];
  }
  return [{ path, message: issue.message }];
}

function validationIssues(error: ORPCError<string, unknown>): InputIssue[] | undefined {
  const cause = error.cause;
  if (cause instanceof ValidationError) {
    return (cause.issues as readonly ValidationIssue[])
      .flatMap(inputIssuesOf)
      .map(({ path, message }) => ({ path, message }));
  }
  const data = error.data as { issues?: InputIssue[] } | undefined;
  return data?.issues;
}

/**
 * Turns anything thrown into an oRPC error fit for a response: known codes keep their message;
 * input validation failures list their issues; a database that cannot be reached, or whose disk is
 * full, is 503 (the latter saying so); everything
 * else becomes a generic 500 whose cause is logged with the request id, never sent.
 */
export function normalizeError(error: unknown, logger: Logger, requestId: string) {
  if (error instanceof ORPCError && isErrorCode(error.code) && error.status < 500) {
    const issues = validationIssues(error);
    const message = error.cause instanceof ValidationError ? 'Invalid input' : error.message;
    const data = { ...(error.data as object | undefined), ...(issues && { issues }), requestId };
    // `defined`: the contract declares this error (`.errors()`), so `@orpc/client` types it.
    return new ORPCError(error.code, {
      status: errorStatus[error.code],
      message,
      data,
      defined: error.defined,
    });
  }
  const cause = error instanceof ORPCError ? (error.cause ?? error) : error;
  if (noteDiskFull(cause)) {
    const { code, message } = rootCauseOf(cause);
    logger.error({ err: cause, sqlState: code, cause: message }, `database disk full: ${message}`);
    return new ORPCError('SERVICE_UNAVAILABLE', {
      status: 503,
      message: DISK_FULL_MESSAGE,
      data: { requestId },
    });
  }
  if (
    (error instanceof ORPCError && error.code === 'SERVICE_UNAVAILABLE') ||
    isDatabaseUnavailable(cause)
  ) {
    logger.warn({ err: cause }, 'database unavailable');
    return new ORPCError('SERVICE_UNAVAILABLE', {
      status: 503,
      message: 'Service temporarily unavailable',
      data: { requestId },
    });
  }
  logger.error({ err: cause }, 'unexpected error');
  return new ORPCError('INTERNAL_SERVER_ERROR', {
    status: 500,
    message: 'Internal server error',
    data: { requestId },
  });
}

/** The error object for an already normalized error. */
export function errorBody(error: ORPCError<string, unknown>, procedure?: string): ErrorBody {
  const data = (error.data ?? {}) as { issues?: InputIssue[]; requestId?: string };
  const code = isErrorCode(error.code) ? error.code : 'INTERNAL_SERVER_ERROR';
  return {
    code,
    message: error.message,
    ...(procedure !== undefined && { procedure }),
    ...(data.issues && { issues: data.issues }),
    ...(data.requestId && { requestId: data.requestId }),
  };
}

export function errorResponse(
  code: ErrorCode,
  message: string,
  requestId: string,
  extra: { procedure?: string; headers?: Record<string, string> } = {},
): Response {
  const body: ErrorBody = {
    code,
    message,
    ...(extra.procedure !== undefined && { procedure: extra.procedure }),
    requestId,
  };
  return Response.json(body, { status: errorStatus[code], headers: extra.headers });
}
