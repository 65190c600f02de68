import type { PrincipalKind } from './principal.ts';

export type ProcedureKind = 'query' | 'mutation';
export type ResourceAccessLevel = 'read' | 'manage';

/** A kind of resource that carries team grants, and what its NOT_FOUND message calls it. */
export interface ResourceKind {
  /** `{pluginId}.{name}`, as grants name it (`catalog.system`). */
  type: string;
  /** The word of the owning plugin's NOT_FOUND message (`System`): a hidden resource answers the same. */
  label?: string;
}

/**
 * A procedure of the plugin owning the resource, addressing one: its type and the input field
 * holding its id. A team grant on that resource stands in for the procedure's access rules.
 */
export interface ResourceRef extends ResourceKind {
  idField: string;
  level: ResourceAccessLevel;
}

/**
 * A procedure whose input names resources of another plugin that its objects attach to (the
 * system of a health check, the systems of an incident). The procedure's own rules are always
 * needed; besides, each named team-only resource needs a grant of the caller's team at `level`.
 */
export interface AttachedRef extends ResourceKind {
  /** Input fields holding one id or an array of ids; absent fields name nothing. */
  fields: readonly string[];
  level: ResourceAccessLevel;
}

/**
 * A procedure whose output lists objects attached to resources: `field` holds the array and
 * `via` the field of each item with its resource id or ids. An item is left out unless it is
 * attached to nothing or to at least one resource the caller may read; the ids of team-only
 * resources it may not read are taken out of a `via` array. Without `field` the output is one
 * such object (its handler has checked that the caller may see it): only the ids are taken out.
 */
export interface AttachedListRef extends ResourceKind {
  field?: string;
  via: string;
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
  attachedTo?: AttachedRef;
  attachedList?: AttachedListRef;
  /** A query whose input may be large: served as POST with a JSON body. */
  bulk?: boolean;
  /**
   * A mutation that must not hold a transaction open (it waits on the network); it manages its
   * own short transactions. Inside a keyed batch it still joins the batch's transaction.
   */
  noTransaction?: boolean;
}
