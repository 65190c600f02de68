import type { InputIssue } from './errors.ts';
import { badRequest } from './errors.ts';

/** Arrays and objects an input may nest, the input itself counting as the first. */
export const MAX_INPUT_DEPTH = 32;

/** Values (strings, numbers, arrays, object entries ...) one input may hold. */
export const MAX_INPUT_VALUES = 100_000;

/** At most this many issues are listed; one is enough to refuse the call. */
const MAX_LISTED_ISSUES = 20;

// NUL and unpaired UTF-16 halves: PostgreSQL stores neither in text or jsonb and fails the
// statement, so they are refused before any handler sees them.
// (`isWellFormed` is in Node 20, not yet in the ES2023 library the compiler is given.)
const safeString = (value: string) =>
  (value as string & { isWellFormed(): boolean }).isWellFormed() && !value.includes('\u0000');

/** JSON objects, also oRPC's (whose prototype is a frozen object without a constructor). */
const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value) as { constructor?: unknown } | null;
  return prototype === Object.prototype || prototype === null || !prototype.constructor;
};

// The values the current `isSafeInput` call may still visit. The walk is synchronous, so one
// counter serves every call, and no closure is made per call.
let remainingValues = 0;

function isSafeValue(value: unknown, depth: number): boolean {
  if (--remainingValues < 0) return false;
  if (typeof value === 'string') return safeString(value);
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    if (depth >= MAX_INPUT_DEPTH) return false;
    for (let index = 0; index < value.length; index += 1) {
      if (!isSafeValue(value[index], depth + 1)) return false;
    }
    return true;
  }
  if (!isPlainObject(value)) return true;
  if (depth >= MAX_INPUT_DEPTH) return false;
  for (const key in value) {
    if (!safeString(key) || !isSafeValue(value[key], depth + 1)) return false;
  }
  return true;
}

/**
 * The hot path: true when every string (values and keys) is safe, nesting stays within
 * MAX_INPUT_DEPTH and the input holds at most MAX_INPUT_VALUES values. Allocates nothing, and its
 * recursion stops at the depth limit, so a deeply nested input cannot exhaust the stack.
 */
export function isSafeInput(input: unknown): boolean {
  remainingValues = MAX_INPUT_VALUES;
  return isSafeValue(input, 0);
}

/** What is wrong with an input `isSafeInput` refused, path by path (the slow path, on refusal). */
export function inputIssues(input: unknown): InputIssue[] {
  const issues: InputIssue[] = [];
  let budget = MAX_INPUT_VALUES;
  const report = (path: readonly string[], message: string) => {
    if (issues.length < MAX_LISTED_ISSUES) issues.push({ path: path.join('.'), message });
  };
  const stringMessage = (value: string) =>
    value.includes('\u0000')
      ? 'Must not contain a NUL character'
      : 'Must not contain an unpaired UTF-16 surrogate';
  const visit = (value: unknown, path: string[], depth: number) => {
    if (--budget === -1) report(path, `The input holds more than ${MAX_INPUT_VALUES} values`);
    if (budget < 0 || issues.length >= MAX_LISTED_ISSUES) return;
    if (typeof value === 'string') {
      if (!safeString(value)) report(path, stringMessage(value));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const isArray = Array.isArray(value);
    if (!isArray && !isPlainObject(value)) return;
    if (depth >= MAX_INPUT_DEPTH) {
      report(path, `Nested deeper than ${MAX_INPUT_DEPTH} levels`);
      return;
    }
    const entries: [string, unknown][] = isArray
      ? Array.from(value, (item, index): [string, unknown] => [String(index), item])
      : Object.entries(value);
    for (const [key, item] of entries) {
      if (!isArray && !safeString(key)) report([...path, key], `Key: ${stringMessage(key)}`);
      visit(item, [...path, key], depth + 1);
    }
  };
  visit(input, [], 0);
  return issues;
}

/** Throws BAD_REQUEST with `issues` unless `input` keeps the input rules (docs/api.md, "Input rules"). */
export function assertSafeInput(input: unknown): void {
  if (!isSafeInput(input)) throw badRequest('Invalid input', inputIssues(input));
}
