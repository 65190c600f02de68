import type { Database } from '@checkline/db';
import { eq } from 'drizzle-orm';
import { oauthTokens } from '../db/schema.ts';
import { OAUTH_ROUTE_PREFIX } from './link-flow.ts';

/** What the settings page may know of a stored link: whether it must be made again, no token. */
export interface LinkStatus {
  needsRelink: boolean;
}

/** The user's links on every strategy, by strategy id, in one query; tokens are not read. */
export async function linkStatusesOf(
  db: Database,
  userId: string,
): Promise<Map<string, LinkStatus>> {
  const rows = await db
    .select({ strategyId: oauthTokens.strategyId, needsRelink: oauthTokens.needsRelink })
    .from(oauthTokens)
    .where(eq(oauthTokens.userId, userId));
  return new Map(rows.map((row) => [row.strategyId, { needsRelink: row.needsRelink }]));
}

/** The relative path that starts linking (or linking again) an account on the strategy. */
export const linkPathOf = (strategyId: string): string =>
  `${OAUTH_ROUTE_PREFIX}/${encodeURIComponent(strategyId)}/auth`;
