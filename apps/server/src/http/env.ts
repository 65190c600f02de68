import type { Logger, Principal } from '@checkline/core';
import type { Context } from 'hono';

/** What the app's middleware puts on every Hono context. */
export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    /** The caller, once a surface or route has resolved it (for the access log). */
    principal: Principal | undefined;
  };
};

export type AppContext = Context<AppEnv>;
