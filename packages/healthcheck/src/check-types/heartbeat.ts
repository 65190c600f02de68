import { z } from 'zod';
import { defineHealthCheckType } from '../check-type.ts';
import { readBeatState } from '../heartbeat/store.ts';
import { fail, pass } from './outcome.ts';

export const HeartbeatCheckConfigSchema = z.object({
  /** Seconds a beat may come late beyond the check's interval before the check fails. */
  graceSeconds: z.number().int().min(0).max(86_400).default(60),
});
export type HeartbeatCheckConfig = z.infer<typeof HeartbeatCheckConfigSchema>;

export interface HeartbeatDeps {
  now: () => Date;
}

const seconds = (ms: number) => Math.floor(ms / 1_000);

/**
 * Passive: a job calls `POST /api/healthcheck/heartbeat/{token}`; each run of the check fails
 * once no beat came within the check's interval plus the grace period.
 */
export function createHeartbeatCheckType(deps: HeartbeatDeps) {
  return defineHealthCheckType({
    id: 'heartbeat',
    displayName: 'Heartbeat',
    description:
      'Fails when a job stops calling its heartbeat URL: no beat within the interval plus a grace period. The token is shown once, when the check is created.',
    config: HeartbeatCheckConfigSchema,
    async run(config, { healthCheckId, db }) {
      const startedAt = performance.now();
      if (healthCheckId === undefined || db === undefined)
        return fail(startedAt, 'Heartbeat checks run only as a stored check');
      const state = await readBeatState(db, healthCheckId);
      if (!state) return fail(startedAt, 'No heartbeat token; rotate one to start');
      const allowedMs = (state.intervalSeconds + config.graceSeconds) * 1_000;
      const since = state.lastBeatAt ?? state.issuedAt;
      const ageMs = deps.now().getTime() - since.getTime();
      const expectation = `expected every ${state.intervalSeconds} s + ${config.graceSeconds} s grace`;
      if (ageMs > allowedMs) {
        return fail(
          startedAt,
          state.lastBeatAt
            ? `No beat for ${seconds(ageMs)} s (last at ${since.toISOString()}); ${expectation}`
            : `No beat since the token was issued ${seconds(ageMs)} s ago; ${expectation}`,
        );
      }
      return pass(
        startedAt,
        state.lastBeatAt
          ? `Last beat ${seconds(ageMs)} s ago`
          : `Waiting for the first beat, due by ${new Date(since.getTime() + allowedMs).toISOString()}`,
      );
    },
  });
}
