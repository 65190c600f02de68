import type { Logger } from '@checkline/core';
import { badRequest } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { and, eq, inArray } from 'drizzle-orm';
import { builtInRoles } from './access.ts';
import type { ContractFacts } from './contract-facts.ts';
import { roleRules, roles } from './db/schema.ts';

const notReads = (rules: readonly string[], facts: ContractFacts) =>
  rules.filter((rule) => !facts.readRules.has(rule));

/** The `anonymous` role opens its rules to callers without credentials: reads only. */
export function assertAnonymousMayHold(
  roleName: string,
  rules: readonly string[],
  facts: ContractFacts,
) {
  if (roleName !== builtInRoles.anonymous) return;
  const [change] = notReads(rules, facts);
  if (change) {
    throw badRequest(
      `The anonymous role may hold only read rules; ${change} is not a read rule (a change needs it, or no read declares it)`,
    );
  }
}

/** At start-up: takes out of the `anonymous` role every rule that is not a read, with a warning. */
export async function keepAnonymousReadOnly(db: Database, facts: ContractFacts, logger: Logger) {
  const rows = await db
    .select({ roleId: roleRules.roleId, rule: roleRules.rule })
    .from(roleRules)
    .innerJoin(roles, eq(roles.id, roleRules.roleId))
    .where(eq(roles.name, builtInRoles.anonymous));
  const removed = notReads(
    rows.map((row) => row.rule),
    facts,
  );
  const roleId = rows[0]?.roleId;
  if (!roleId || removed.length === 0) return;
  await db
    .delete(roleRules)
    .where(and(eq(roleRules.roleId, roleId), inArray(roleRules.rule, removed)));
  logger.warn(
    { removed },
    `removed rules from the anonymous role that are not reads: ${removed.join(', ')}`,
  );
}
