import type {
  DeliveryResult,
  NotificationStrategy,
  StrategySendContext,
} from '@checkline/notification-node';
import { testStrategy } from './test-strategy.ts';

/** A strategy whose `send` records every context it is given and answers what `answer` says. */
export function recordingStrategy(
  overrides: Partial<NotificationStrategy> = {},
  answer: (context: StrategySendContext<unknown, unknown>) => Promise<DeliveryResult> = () =>
    Promise.resolve({ success: true }),
) {
  const sent: StrategySendContext<unknown, unknown>[] = [];
  const strategy = testStrategy({
    ...overrides,
    send: (context) => {
      sent.push(context);
      return answer(context);
    },
  });
  return { strategy, sent };
}
