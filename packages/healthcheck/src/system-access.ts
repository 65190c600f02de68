import type { RequestContext } from '@checkline/core';
import { appError } from '@checkline/core';
import type { ResourceAccessLevel } from '@checkline/core/contract';
import { SYSTEM_RESOURCE, healthcheckAccess } from './access.ts';

/**
 * Team access for procedures addressed by a check rather than a system id: the check's system
 * decides. The access rule itself was checked by the access middleware already.
 */
export async function assertSystemAccess(
  context: RequestContext,
  systemId: string,
  level: ResourceAccessLevel,
) {
  if (context.principal.kind === 'service') return;
  const decision = await context.resources.decide(
    context.principal,
    SYSTEM_RESOURCE,
    systemId,
    level,
  );
  if (decision === 'deny') {
    throw appError('FORBIDDEN', `This ${SYSTEM_RESOURCE} is restricted to its teams`);
  }
}

/** The ids among `systemIds` whose health the caller may see. */
export async function visibleSystems(
  context: RequestContext,
  systemIds: readonly string[],
): Promise<ReadonlySet<string>> {
  const { principal } = context;
  if (principal.kind === 'service' || systemIds.length === 0) return new Set(systemIds);
  const holdsGlobalRule =
    principal.isAdmin || principal.accessRules.includes(healthcheckAccess.read.id);
  return context.resources.visible(principal, SYSTEM_RESOURCE, systemIds, 'read', holdsGlobalRule);
}
