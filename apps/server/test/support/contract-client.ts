import { createORPCClient } from '@orpc/client';
import { RPCLink } from '@orpc/client/fetch';
import type { AnyContractRouter, ContractRouterClient } from '@orpc/contract';
import { testEnv } from './test-server.ts';
import type { TestServer } from './test-server.ts';

/**
 * A typed oRPC client (RPC protocol) straight into the test server's app, sending `headers`
 * (a bearer key, or a session cookie with our Origin) with every call.
 */
export function contractClient<T extends AnyContractRouter>(
  server: () => TestServer,
  headers: Record<string, string>,
): ContractRouterClient<T> {
  return createORPCClient(
    new RPCLink({
      url: `${testEnv.BASE_URL}/api`,
      headers,
      fetch: (request) => Promise.resolve(server().app.fetch(request)),
    }),
  );
}
