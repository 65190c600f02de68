import { pageInput, pageOf, timestampInput } from '@checkline/core/contract';
import { z } from 'zod';

const id = z.uuid();
const title = z.string().trim().min(1, 'Title must not be empty').max(200);
const description = z.string().max(5_000);
/** Input instants may carry any offset; outputs are always UTC (`...Z`). */
const instant = timestampInput();
const systemIds = z.array(id).min(1, 'A window covers at least one system').max(100);

export const WindowSchema = z.object({
  id,
  title: z.string(),
  description: z.string(),
  /** Catalog systems the window covers, sorted. */
  systemIds: z.array(z.uuid()),
  startAt: z.iso.datetime(),
  endAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
WindowSchema.register(z.globalRegistry, { id: 'Window' });
export type Window = z.infer<typeof WindowSchema>;

export const WindowsSchema = z.object({ windows: z.array(WindowSchema) });

export const WindowPageSchema = pageOf('windows', WindowSchema);
export type WindowPage = z.infer<typeof WindowPageSchema>;

export const GetWindowsInputSchema = z.object({
  /** Only windows covering this system. */
  systemId: id.optional(),
  /** Also windows that have ended. Default false: active and upcoming only. */
  includePast: z.boolean().optional(),
  ...pageInput,
});
export type GetWindowsInput = z.infer<typeof GetWindowsInputSchema>;

export const GetBulkActiveWindowsInputSchema = z.object({
  systemIds: z.array(id).max(500),
});

export const ScheduleWindowInputSchema = z.object({
  title,
  description: description.optional(),
  systemIds,
  startAt: instant,
  endAt: instant,
});
export type ScheduleWindowInput = z.infer<typeof ScheduleWindowInputSchema>;

export const UpdateWindowInputSchema = ScheduleWindowInputSchema.partial().extend({ id });
export type UpdateWindowInput = z.infer<typeof UpdateWindowInputSchema>;

export const IdInputSchema = z.object({ id });
export const DeletedSchema = z.object({ id, deleted: z.literal(true) });
