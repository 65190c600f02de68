import { badRequest } from '@checkline/core/contract';
import { dictionary } from '@zxcvbn-ts/language-common';

/** Passwords have at least this many characters. */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1_024;

let common: ReadonlySet<string> | undefined;

/** The ~49 000 most common passwords of zxcvbn-ts's list, lower-cased, loaded on first use. */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));
  return common;
}

/** What is wrong with `password` as a new password, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return `The password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `The password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  }
  if (commonPasswords().has(password.trim().toLowerCase())) {
    return 'This password is too common; choose another';
  }
  return undefined;
}

/** BAD_REQUEST naming `field` when `password` is not acceptable as a new password. */
export function assertAcceptablePassword(password: string, field = 'password'): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(problem, [{ path: field, message: problem }]);
}
