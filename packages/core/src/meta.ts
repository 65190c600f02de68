import type { PrincipalKind } from './principal.ts';

export type ProcedureKind = 'query' | 'mutation';
export type ResourceAccessLevel = 'read' | 'manage';

/** A procedure that addresses one resource: its type and the input field holding its id. */
export interface ResourceRef {
  type: string;
  idField: string;
  level: ResourceAccessLevel;
}

/** A procedure that lists resources: the output field holding the array of `{ id }` objects. */
export interface ResourceListRef {
  type: string;
  field: string;
  level: ResourceAccessLevel;
}

/** Contract metadata read by the access middleware and the REST/OpenAPI derivation. */
export interface ProcedureMeta {
  kind: ProcedureKind;
  /** Principal kinds that may call at all. Default: every kind (rules still apply). */
  principals: readonly PrincipalKind[];
  /** Access rules the caller must hold, checked in this order. */
  access: readonly string[];
  resource?: ResourceRef;
  resourceList?: ResourceListRef;
  /** A query whose input may be large: served as POST with a JSON body. */
  bulk?: boolean;
  /**
   * A mutation that must not hold a transaction open (it waits on the network); it manages its
   * own short transactions. Inside a keyed batch it still joins the batch's transaction.
   */
  noTransaction?: boolean;
}
