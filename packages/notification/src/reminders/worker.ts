import type { PeriodicTask } from '@checkline/core';
import { createPeriodicTask } from '@checkline/core';
import type { NotificationState } from '../state.ts';
import { sendDueReminders } from './dispatch.ts';
import type { ResolvedReminderSettings } from './settings.ts';

/** This process's share of the reminders and escalations: one round every `pollMs`. */
export function createReminderWorker(
  state: NotificationState,
  settings: ResolvedReminderSettings,
): PeriodicTask {
  return createPeriodicTask({
    name: 'alert reminders',
    intervalMs: settings.pollMs,
    logger: state.logger,
    async run() {
      await sendDueReminders(state, settings);
    },
  });
}
