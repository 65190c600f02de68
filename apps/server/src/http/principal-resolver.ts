import { anonymousPrincipal } from '@checkline/core';
import type { Principal } from '@checkline/core';

/**
 * Turns a request's credentials into a principal. Throws UNAUTHORIZED for credentials that are
 * present but not valid; answers the anonymous principal when there are none.
 */
export type PrincipalResolver = (request: Request) => Promise<Principal>;

/** Until an auth plugin fills this step, every caller is anonymous. */
export const resolveEveryoneAsAnonymous: PrincipalResolver = async () => anonymousPrincipal();
