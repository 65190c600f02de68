import { createORPCClient } from '@orpc/client';
import { RPCLink } from '@orpc/client/fetch';
import type { ContractRouterClient } from '@orpc/contract';
import { createTanstackQueryUtils } from '@orpc/tanstack-query';
import type { Contracts } from './contracts.ts';

export type ApiClient = ContractRouterClient<Contracts>;

/**
 * The one client of the API: oRPC's RPC protocol at `/api/{pluginId}/{procedure}` on the origin
 * that served the page (the server, or Vite's dev proxy), with the session cookie.
 */
export const api: ApiClient = createORPCClient(
  new RPCLink({ url: () => `${window.location.origin}/api` }),
);

/** TanStack Query options and keys for every procedure: `orpc.auth.getMe.queryOptions(...)`. */
export const orpc = createTanstackQueryUtils(api);
