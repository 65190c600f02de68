import { randomUUID } from 'node:crypto';
import type { NotificationStrategy, StrategySendContext } from '../strategies/strategy.ts';

/**
 * What the delivery worker hands `strategy.send`, for testing a channel's strategy directly:
 * `config` (and `userConfig`) are parsed through the strategy's schemas (defaults filled in as stored settings
 * are), the delivery identity is made up.
 */
export function sendContextFor<TConfig, TUserConfig>(
  strategy: Pick<NotificationStrategy<TConfig, TUserConfig>, 'config' | 'userConfig' | 'id'>,
  input: {
    contact: string;
    config?: unknown;
    /** Parsed through the strategy's userConfig schema. */
    userConfig?: unknown;
    notification?: Partial<StrategySendContext<TConfig, unknown>['notification']>;
    accessToken?: string;
    externalId?: string;
  },
): StrategySendContext<TConfig, unknown, TUserConfig> {
  return {
    contact: input.contact,
    notification: {
      title: 'Checkout is down',
      type: 'healthcheck.status_changed',
      importance: 'critical',
      ...input.notification,
    },
    delivery: {
      id: randomUUID(),
      userId: randomUUID(),
      strategyId: `test.${strategy.id}`,
      createdAt: new Date(),
      transactional: false,
    },
    strategyConfig: strategy.config.schema.parse(input.config ?? {}),
    ...(input.userConfig !== undefined &&
      strategy.userConfig && { userConfig: strategy.userConfig.schema.parse(input.userConfig) }),
    ...(input.accessToken !== undefined && { accessToken: input.accessToken }),
    ...(input.externalId !== undefined && { externalId: input.externalId }),
  };
}
