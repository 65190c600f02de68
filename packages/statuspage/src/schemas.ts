import { pageInput, pageOf } from '@checkline/core/contract';
import { z } from 'zod';

const id = z.uuid();
export const MAX_SECTIONS = 20;
export const MAX_ITEMS_PER_SECTION = 100;

/** Lowercase letters, digits and single dashes: the page's address, `/status/{slug}`. */
export const SlugSchema = z
  .string()
  .min(2)
  .max(60)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Use lowercase letters, digits and single dashes');

const displayName = z.string().trim().min(1, 'Display name must not be empty').max(100);

/** One line of a section: a catalog system or group, under the name visitors see. */
export const PageItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('system'), systemId: id, displayName }),
  z.object({ kind: z.literal('group'), groupId: id, displayName }),
]);
PageItemSchema.register(z.globalRegistry, { id: 'StatusPageItem' });
export type PageItem = z.infer<typeof PageItemSchema>;

export const PageSectionSchema = z.object({
  title: z.string().trim().min(1).max(100),
  items: z.array(PageItemSchema).max(MAX_ITEMS_PER_SECTION),
});
PageSectionSchema.register(z.globalRegistry, { id: 'StatusPageSection' });
export type PageSection = z.infer<typeof PageSectionSchema>;

const colour = z.string().regex(/^#[0-9a-f]{6}$/i, 'A colour is #rrggbb');
const hostname = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'A host name such as status.example.com',
  );

const pageFields = {
  slug: SlugSchema,
  title: z.string().trim().min(1, 'Title must not be empty').max(120),
  description: z.string().max(2_000),
  /** An https address of the logo image. */
  logoUrl: z
    .url({ protocol: /^https$/ })
    .max(2_000)
    .nullable(),
  brandColor: colour.nullable(),
  /** A host name that serves this page, for a proxy in front of the server. */
  customDomain: hostname.nullable(),
  sections: z.array(PageSectionSchema).max(MAX_SECTIONS),
};

export const PageSchema = z.object({
  id,
  ...pageFields,
  published: z.boolean(),
  /** The systems listed by name in the sections, sorted: team access to the page follows them. */
  systemIds: z.array(id),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
PageSchema.register(z.globalRegistry, { id: 'StatusPage' });
export type Page = z.infer<typeof PageSchema>;

export const CreatePageInputSchema = z.object({
  slug: pageFields.slug,
  title: pageFields.title,
  description: pageFields.description.optional(),
  logoUrl: pageFields.logoUrl.optional(),
  brandColor: pageFields.brandColor.optional(),
  customDomain: pageFields.customDomain.optional(),
  sections: pageFields.sections.optional(),
});
export type CreatePageInput = z.infer<typeof CreatePageInputSchema>;

export const UpdatePageInputSchema = CreatePageInputSchema.partial().extend({ id });
export type UpdatePageInput = z.infer<typeof UpdatePageInputSchema>;

export const IdInputSchema = z.object({ id });
export const DeletedSchema = z.object({ id, deleted: z.literal(true) });
export const GetPagesInputSchema = z.object(pageInput);
export type GetPagesInput = z.infer<typeof GetPagesInputSchema>;
export const PageListSchema = pageOf('pages', PageSchema);
export type PageList = z.infer<typeof PageListSchema>;
