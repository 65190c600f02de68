import { z } from 'zod';

const param = (max: number) =>
  z
    .string()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/)
    .optional();

/** The query of `GET .../callback`, as the provider sends it back. */
export const CallbackQuerySchema = z.object({
  code: param(4096),
  state: param(2048),
  error: param(256),
});

/** The query of `GET .../auth`. */
export const AuthQuerySchema = z.object({ returnTo: param(512) });
