import type { ProcedureMeta } from '@checkline/core/contract';
import type { AnyContractRouter } from '@orpc/contract';

function* proceduresOf(router: AnyContractRouter): Generator<ProcedureMeta> {
  for (const entry of Object.values(router as Record<string, AnyContractRouter>)) {
    const meta = (entry as { '~orpc'?: { meta?: ProcedureMeta } })['~orpc']?.meta;
    if (meta?.kind) yield meta;
    else if (typeof entry === 'object' && entry !== null) yield* proceduresOf(entry);
  }
}

/**
 * What the mounted contracts declare, read once at start-up: which access rules only reads need,
 * and which resource types exist.
 */
export class ContractFacts {
  /** Rules some query requires and no mutation does; a rule no procedure names is not one. */
  readonly readRules: ReadonlySet<string>;
  /** Every resource type a procedure addresses or lists. */
  readonly resourceTypes: ReadonlySet<string>;

  constructor(contracts: readonly AnyContractRouter[]) {
    const reads = new Set<string>();
    const changes = new Set<string>();
    const types = new Set<string>();
    for (const contract of contracts) {
      for (const meta of proceduresOf(contract)) {
        for (const rule of meta.access) (meta.kind === 'query' ? reads : changes).add(rule);
        if (meta.resource) types.add(meta.resource.type);
        if (meta.resourceList) types.add(meta.resourceList.type);
      }
    }
    this.readRules = new Set([...reads].filter((rule) => !changes.has(rule)));
    this.resourceTypes = types;
  }
}
