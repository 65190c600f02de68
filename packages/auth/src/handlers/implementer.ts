import { implementPlugin } from '@checkline/core';
import type { RequestContext } from '@checkline/core';
import { os as base } from '@orpc/server';
import { assertMayActOn, principalsActedOn } from '../acting-on-principals.ts';
import { authContract } from '../contract.ts';

/**
 * Applies the rule for acting on principals to every procedure listed in `actsOnPrincipals`.
 * The guarded router validates input before it (right after admission); it still validates a copy
 * itself so that it holds wherever the router is mounted, and leaves invalid input to validation.
 */
const actOnlyOnLesserPrincipals = base
  .$context<RequestContext>()
  .middleware(async function actOnlyOnLesserPrincipals({ context, path, procedure, next }, input) {
    const name = path.at(-1) ?? '';
    const schema = procedure['~orpc'].inputSchema;
    const parsed = schema ? await schema['~standard'].validate(input) : { value: input };
    if (!parsed.issues) {
      for (const target of await principalsActedOn(name, parsed.value, context.db)) {
        await assertMayActOn(context.db, context.principal, target);
      }
    }
    return next();
  });

/** The one implementer of the auth contract that every handler group builds on. */
export const os = implementPlugin(authContract).use(actOnlyOnLesserPrincipals);
