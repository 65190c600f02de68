import type { AuthContract } from '@checkline/auth/contract';
import type { CatalogContract } from '@checkline/catalog/contract';
import type { HealthcheckContract } from '@checkline/healthcheck/contract';
import type { NotificationStrategy } from '@checkline/notification-node';
import type { NotificationContract } from '@checkline/notification/contract';
import { testChannelPlugin, writeStrategySettings } from '@checkline/notification/testing';
import { contractClient } from './contract-client.ts';
import { createTestServer, type TestServerOptions } from './test-server.ts';

/** The plugins a monitoring scenario calls through a typed client. */
export type MonitoringContracts = {
  auth: AuthContract;
  catalog: CatalogContract;
  healthcheck: HealthcheckContract;
  notification: NotificationContract;
};

/**
 * A test server with a test channel plugin `channel` offering `strategy`, enabled as
 * `<channel>.<strategy id>`, and the signed-in administrator: their headers and a typed client.
 */
export async function createChannelServer(
  channel: string,
  strategy: NotificationStrategy,
  options: TestServerOptions = {},
) {
  const server = await createTestServer({
    ...options,
    extraPlugins: [...(options.extraPlugins ?? []), testChannelPlugin(channel, [strategy])],
  });
  await writeStrategySettings(server.database.db, `${channel}.${strategy.id}`);
  const adminHeaders = await server.adminSession();
  const admin = contractClient<MonitoringContracts>(() => server, adminHeaders);
  return { server, admin, adminHeaders };
}
