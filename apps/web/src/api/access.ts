import type { AnyContractProcedure } from '@orpc/contract';
import type { ApiClient } from './client.ts';

/** The caller as the server sees it (`auth.getMe`). */
export type Me = Awaited<ReturnType<ApiClient['auth']['getMe']>>;

interface AccessMeta {
  principals?: readonly string[];
  access?: readonly string[];
}

/**
 * Whether the signed-in principal may call a procedure, read from the procedure's own contract
 * metadata (the same rules the server enforces), so screens hide what would only fail.
 */
export function mayCall(me: Me | undefined, procedure: AnyContractProcedure): boolean {
  if (!me) return false;
  const meta = procedure['~orpc'].meta as AccessMeta;
  if (meta.principals && !meta.principals.includes(me.kind)) return false;
  if (me.isAdmin) return true;
  return (meta.access ?? []).every((rule) => me.accessRules.includes(rule));
}
