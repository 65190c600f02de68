import { randomUUID } from 'node:crypto';
import type { DeliveryResult } from '@checkline/notification-node';
import { absoluteUrl } from '../delivery/attempt.ts';
import { scrubSecrets, secretValuesOf } from '../delivery/scrub-secrets.ts';
import { errorMessage } from '../preferences/contact-resolution.ts';
import type { NotificationState } from '../state.ts';
import type { RegisteredStrategy } from '../strategies/registry.ts';
import type { StrategySettings } from '../strategies/settings-store.ts';
import { loadStrategySettings } from '../strategies/settings-store.ts';
import type { SendToAddressInput, SentToAddress } from './schemas.ts';

/** Strategies whose contact is an e-mail address: they can reach someone without an account. */
const sendsEmail = (strategy: RegisteredStrategy) =>
  strategy.contactResolution.type === 'auth-email' ||
  strategy.contactResolution.type === 'auth-provider';

/** Stands for "no user" where a strategy's delivery identity asks for one. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

/** The named e-mail strategy, or the first enabled and configured one by id. */
async function chooseStrategy(state: NotificationState, strategyId: string | undefined) {
  const candidates = state.strategies
    .list()
    .filter(sendsEmail)
    .filter((strategy) => strategyId === undefined || strategy.qualifiedId === strategyId)
    .sort((a, b) => a.qualifiedId.localeCompare(b.qualifiedId));
  const settings = await loadStrategySettings(
    state,
    state.db,
    candidates.map((strategy) => strategy.qualifiedId),
  );
  const usable = candidates.find((strategy) => {
    const found = settings.get(strategy.qualifiedId);
    return found?.enabled === true && found.configured;
  });
  return usable && { strategy: usable, settings: settings.get(usable.qualifiedId)! };
}

async function timed(send: Promise<DeliveryResult>, ms: number): Promise<DeliveryResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<DeliveryResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ success: false, error: `send timed out after ${ms} ms` }),
      ms,
    );
    timer.unref();
  });
  try {
    return await Promise.race([send, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function failure(strategy: RegisteredStrategy, settings: StrategySettings, error: string) {
  const secrets = [
    ...secretValuesOf(strategy.config.schema, settings.config),
    ...secretValuesOf(strategy.layoutConfig?.schema, settings.layoutConfig),
  ];
  return scrubSecrets(error, secrets).slice(0, 1_000);
}

/**
 * Sends one message now, through an e-mail strategy under the administrator's settings and
 * layout, to an address no account owns (status-page subscribers). Nothing is queued or stored:
 * the caller keeps its own record of what it sent and retries what failed.
 */
export async function sendToAddress(
  state: NotificationState,
  input: SendToAddressInput,
): Promise<SentToAddress> {
  const chosen = await chooseStrategy(state, input.strategyId);
  if (!chosen) {
    return { sent: false, strategyId: null, error: 'No e-mail channel is enabled and configured' };
  }
  const { strategy, settings } = chosen;
  const { description, action, ...notification } = input.notification;
  let result: DeliveryResult;
  try {
    result = await timed(
      strategy.send({
        contact: input.address,
        notification: {
          ...notification,
          body: description,
          importance: 'info',
          ...(action && { action: { label: action.label, url: absoluteUrl(action.url, state) } }),
        },
        delivery: {
          id: input.messageId ?? randomUUID(),
          userId: NO_USER,
          strategyId: strategy.qualifiedId,
          createdAt: new Date(),
          transactional: input.unsubscribeUrl === undefined,
        },
        strategyConfig: settings.config,
        ...(strategy.layoutConfig && { layoutConfig: settings.layoutConfig }),
        ...(input.unsubscribeUrl && { unsubscribeUrl: input.unsubscribeUrl }),
      }),
      state.deliverySettings.sendTimeoutMs,
    );
  } catch (error) {
    result = { success: false, error: errorMessage(error) };
  }
  return result.success
    ? { sent: true, strategyId: strategy.qualifiedId, error: null }
    : {
        sent: false,
        strategyId: strategy.qualifiedId,
        error: failure(strategy, settings, result.error ?? 'send failed without saying why'),
      };
}
