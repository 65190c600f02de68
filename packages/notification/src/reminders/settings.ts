/** How this process's reminder worker runs; every field has a default. */
export interface ReminderSettings {
  /** How often due reminders and escalations are looked for, in milliseconds. Default 5 000. */
  pollMs?: number;
  /**
   * The smallest `remindEverySeconds` and `escalateAfterSeconds` a subscription may ask for.
   * Default 60 (the server's `REMINDER_MIN_INTERVAL_SECONDS`; tests lower it to seconds).
   */
  minIntervalSeconds?: number;
  /** Alerts handled per transaction. Default 100. */
  batchSize?: number;
  /** Start the worker at `ready`. Default true. */
  autoStart?: boolean;
  /** Days an acknowledgement link works. Default 7. */
  linkDays?: number;
}

export type ResolvedReminderSettings = Required<ReminderSettings>;

const positive = (name: string, value: number) => {
  if (!(Number.isFinite(value) && value > 0)) throw new Error(`reminders.${name} must be positive`);
  return value;
};

export function resolveReminderSettings(settings: ReminderSettings = {}): ResolvedReminderSettings {
  return {
    pollMs: positive('pollMs', settings.pollMs ?? 5_000),
    minIntervalSeconds: positive('minIntervalSeconds', settings.minIntervalSeconds ?? 60),
    batchSize: positive('batchSize', settings.batchSize ?? 100),
    autoStart: settings.autoStart ?? true,
    linkDays: positive('linkDays', settings.linkDays ?? 7),
  };
}
