import { isDefinedError, ORPCError } from '@orpc/client';

/** One field's problem as the server lists it (`path` dotted: `config.webhookUrl`). */
interface FieldIssue {
  path: string;
  message: string;
}

function isIssueList(value: unknown): value is FieldIssue[] {
  return (
    Array.isArray(value) &&
    value.every(
      (issue: unknown) =>
        typeof issue === 'object' &&
        issue !== null &&
        typeof (issue as FieldIssue).path === 'string' &&
        typeof (issue as FieldIssue).message === 'string',
    )
  );
}

/** The message to show a person: the server's own, or a plain one for a network failure. */
export function errorMessage(error: unknown): string {
  if (error instanceof ORPCError || isDefinedError(error)) return (error as Error).message;
  if (error instanceof TypeError) return 'The server could not be reached. Please try again.';
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

/** Field errors of a BAD_REQUEST by path, to show beside their fields. */
export function fieldIssues(error: unknown): Record<string, string> {
  if (!(error instanceof ORPCError)) return {};
  const issues = (error.data as { issues?: unknown } | undefined)?.issues;
  if (!isIssueList(issues)) return {};
  const byPath: Record<string, string> = {};
  for (const issue of issues) byPath[issue.path] ??= issue.message;
  return byPath;
}

export const isUnauthorized = (error: unknown) =>
  error instanceof ORPCError && error.code === 'UNAUTHORIZED';
