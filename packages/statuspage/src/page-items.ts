import type { PageSection } from './schemas.ts';

/** The catalog systems the sections list by name, sorted, each once. */
export const listedSystemIds = (sections: readonly PageSection[]): string[] =>
  [
    ...new Set(
      sections.flatMap((section) =>
        section.items.flatMap((item) => (item.kind === 'system' ? [item.systemId] : [])),
      ),
    ),
  ].sort();

/** The catalog groups the sections list, each once. */
export const listedGroupIds = (sections: readonly PageSection[]): string[] => [
  ...new Set(
    sections.flatMap((section) =>
      section.items.flatMap((item) => (item.kind === 'group' ? [item.groupId] : [])),
    ),
  ),
];

/** The sections without the items naming `systemId`, or undefined when none did. */
export function withoutSystem(
  sections: readonly PageSection[],
  systemId: string,
): PageSection[] | undefined {
  if (!listedSystemIds(sections).includes(systemId)) return undefined;
  return sections.map((section) => ({
    ...section,
    items: section.items.filter((item) => item.kind !== 'system' || item.systemId !== systemId),
  }));
}
