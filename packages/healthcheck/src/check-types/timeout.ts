import { z } from 'zod';

/** A type's own timeout field: it can only tighten the check's timeout. */
export const configTimeoutMs = z
  .number()
  .int()
  .min(100)
  .max(120_000)
  .optional()
  .describe('Milliseconds; tightens the check timeout for this type, never extends it.');

export const effectiveTimeout = (checkTimeoutMs: number, configTimeoutMs: number | undefined) =>
  Math.min(checkTimeoutMs, configTimeoutMs ?? checkTimeoutMs);
