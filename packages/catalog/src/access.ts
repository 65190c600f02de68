import { defineAccessRules } from '@checkline/core/contract';

export const catalogAccess = defineAccessRules('catalog', {
  read: ['catalog.read', 'See systems and groups of the catalog', { subscriber: true }],
  manage: ['catalog.manage', 'Create, change and delete systems and groups'],
});

/** Resource type of a system, for team grants. */
export const SYSTEM_RESOURCE = 'catalog.system';

/** Systems as other plugins name them in contract metadata: a hidden one answers `System <id> not found`. */
export const systemResource = { type: SYSTEM_RESOURCE, label: 'System' } as const;

/**
 * Contract metadata `attachedTo` for team access (docs/security.md): the input `fields` hold the
 * ids of the catalog systems the call is attached to.
 */
export const attachedToSystemsIn = (...fields: string[]) => ({
  attachedTo: { ...systemResource, fields },
});

/**
 * Contract metadata `attachedList` for team access: the output list `field` (or, without it, the output itself)
 * holds objects attached to the catalog systems in their `via` field.
 */
export const attachedListOfSystems = (via: 'systemId' | 'systemIds', field?: string) => ({
  attachedList: { ...systemResource, via, ...(field !== undefined && { field }) },
});
