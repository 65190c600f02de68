import type { Logger } from '@checkline/core';
import type { Context } from 'hono';

/** What the app's middleware puts on every Hono context. */
export type AppEnv = { Variables: { requestId: string; logger: Logger } };

export type AppContext = Context<AppEnv>;
