import type { ApiClient } from '../../api/client.ts';

export type StatusPage = Awaited<ReturnType<ApiClient['statuspage']['getPage']>>;
export type Section = StatusPage['sections'][number];
export type SectionItem = Section['items'][number];
type UpdateInput = Parameters<ApiClient['statuspage']['updatePage']>[0];

/** What the edit form holds: the page's fields with empty text for "none". */
export interface PageFields {
  slug: string;
  title: string;
  description: string;
  logoUrl: string;
  brandColor: string;
  customDomain: string;
  sections: Section[];
}

export function fieldsOf(page: StatusPage): PageFields {
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    logoUrl: page.logoUrl ?? '',
    brandColor: page.brandColor ?? '',
    customDomain: page.customDomain ?? '',
    sections: page.sections,
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The update the form's fields ask for: empty optional fields clear the stored value. */
export function updateOf(id: string, fields: PageFields): UpdateInput {
  return {
    id,
    slug: fields.slug.trim(),
    title: fields.title,
    description: fields.description,
    logoUrl: orNull(fields.logoUrl),
    brandColor: orNull(fields.brandColor),
    customDomain: orNull(fields.customDomain),
    sections: fields.sections,
  };
}

/** The catalog entry an item names: `system:<id>` or `group:<id>`, the pickers' value. */
export const itemKey = (item: SectionItem) =>
  item.kind === 'system' ? `system:${item.systemId}` : `group:${item.groupId}`;

/** The item a picker's value names, under `displayName`. */
export function itemOf(key: string, displayName: string): SectionItem {
  const [kind, id = ''] = key.split(':');
  return kind === 'group'
    ? { kind: 'group', groupId: id, displayName }
    : { kind: 'system', systemId: id, displayName };
}

/** `list` with the entry at `index` swapped with the one before it (unchanged for the first). */
export function movedUp<T>(list: readonly T[], index: number): T[] {
  if (index <= 0 || index >= list.length) return [...list];
  const next = [...list];
  [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
  return next;
}
