import type { Logger, Principal } from '@checkline/core';
import type { Context } from 'hono';

/** What the app's middleware puts on every Hono context. */
export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    /** The caller, once a surface or route has resolved it (for the access log). */
    principal: Principal | undefined;
    /** The path as the access log shows it, when a route's path holds a credential. */
    loggedPath: string | undefined;
  };
};

export type AppContext = Context<AppEnv>;
