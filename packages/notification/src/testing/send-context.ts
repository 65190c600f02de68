import { randomUUID } from 'node:crypto';
import type { NotificationStrategy, StrategySendContext } from '../strategies/strategy.ts';

/**
 * What the delivery worker hands `strategy.send`, for testing a channel's strategy directly:
 * `config` is parsed through the strategy's config schema (defaults filled in as stored settings
 * are), the delivery identity is made up.
 */
export function sendContextFor<TConfig>(
  strategy: Pick<NotificationStrategy<TConfig>, 'config' | 'id'>,
  input: {
    contact: string;
    config?: unknown;
    notification?: Partial<StrategySendContext<TConfig, unknown>['notification']>;
    accessToken?: string;
    externalId?: string;
  },
): StrategySendContext<TConfig, unknown> {
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
    ...(input.accessToken !== undefined && { accessToken: input.accessToken }),
    ...(input.externalId !== undefined && { externalId: input.externalId }),
  };
}
