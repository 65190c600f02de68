import type { DatabaseHandle } from '@checkline/db';
import { silentLogger } from '@checkline/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { heartbeats } from '../db/schema.ts';
import type { HealthcheckHarness } from '../testing/harness.ts';
import { manager, reader, testClock } from '../testing/harness.ts';
import { useHealthcheckSuite } from '../testing/suite.ts';
import { hashHeartbeatToken } from './token.ts';

let database: DatabaseHandle;
let h: HealthcheckHarness;
const clock = testClock();

useHealthcheckSuite((suite) => ({ database, h } = suite), { now: clock.now });

/** Calls the plugin's heartbeat route as the server would, without any session. */
async function beat(token: string): Promise<Response> {
  const route = h.healthcheck.routes!.find((candidate) => candidate.path.includes('heartbeat'))!;
  const request = new Request(`http://checkline.test/api/healthcheck/heartbeat/${token}`, {
    method: 'POST',
  });
  return route.handle(
    request,
    { token },
    {
      requestId: 'test',
      logger: silentLogger,
      db: database.db,
      principal: () => Promise.reject(new Error('the heartbeat route needs no principal')),
    },
  );
}

async function heartbeatCheck(graceSeconds = 30) {
  const system = await h.createSystem();
  const check = await h.as(manager).createHealthCheck({
    systemId: system.id,
    name: 'nightly backup',
    type: 'healthcheck.heartbeat',
    config: { graceSeconds },
    intervalSeconds: 60,
    timeoutMs: 5_000,
  });
  return { system, check, token: check.heartbeatToken! };
}

describe('heartbeat checks', () => {
  describe('works', () => {
    it('shows the token once at creation, stores only its hash and never answers it again', async () => {
      const { system, check, token } = await heartbeatCheck();
      expect(token).toMatch(new RegExp(`^hb_${check.id}_[A-Za-z0-9_-]{43}$`));
      const [stored] = await database.db
        .select()
        .from(heartbeats)
        .where(eq(heartbeats.healthCheckId, check.id));
      expect(stored!.tokenHash).toBe(hashHeartbeatToken(token));
      expect(JSON.stringify(stored)).not.toContain(token.slice(-43));
      const secret = token.slice(-43);
      const answers = [
        await h.as(reader).getHealthChecks({ systemId: system.id }),
        await h.as(manager).updateHealthCheck({ id: check.id, name: 'renamed' }),
        await h.as(reader).getSystemHealthStatus({ systemId: system.id }),
      ];
      for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(secret);
      expect(answers[1]).not.toHaveProperty('heartbeatToken');
    });

    it('passes while beats come on time and fails once none came within interval + grace', async () => {
      const { check, token } = await heartbeatCheck(30);
      await expect(h.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'pass',
        message: expect.stringMatching(/^Waiting for the first beat, due by /),
      });
      clock.advance(50_000);
      expect((await beat(token)).status).toBe(200);
      clock.advance(80_000);
      await expect(h.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'pass',
        message: 'Last beat 80 s ago',
      });
      clock.advance(11_000);
      await expect(h.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'fail',
        message: expect.stringMatching(
          /^No beat for 91 s \(last at .*\); expected every 60 s \+ 30 s grace$/,
        ),
      });
      expect(await h.as(reader).getSystemHealthStatus({ systemId: check.systemId })).toMatchObject({
        status: 'unhealthy',
      });
      expect((await beat(token)).status).toBe(200);
      await expect(h.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'pass',
      });
    });

    it('is judged by the scheduler as any check is: a missed beat fails the scheduled run', async () => {
      const { check } = await heartbeatCheck(0);
      clock.advance(61_000);
      expect(await h.healthcheck.scheduler().tick()).toBeGreaterThanOrEqual(1);
      await h.healthcheck.scheduler().idle();
      const { results } = await h.as(reader).getHistory({ healthCheckId: check.id });
      expect(results[0]).toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/^No beat since the token was issued 61 s ago/),
      });
    });

    it('rotates the token: the new one works, the old one no longer does', async () => {
      const { check, token } = await heartbeatCheck();
      const rotated = await h.as(manager).rotateHeartbeatToken({ id: check.id });
      expect(rotated.healthCheckId).toBe(check.id);
      expect(rotated.heartbeatToken).not.toBe(token);
      expect((await beat(token)).status).toBe(404);
      expect((await beat(rotated.heartbeatToken)).status).toBe(200);
    });

    it('issues a token when a check becomes a heartbeat check and forgets it when it stops being one', async () => {
      const system = await h.createSystem();
      const tcp = await h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'tcp',
        type: 'healthcheck.tcp',
        config: { host: '10.0.0.1', port: 5432 },
      });
      expect(tcp).not.toHaveProperty('heartbeatToken');
      const becameHeartbeat = await h
        .as(manager)
        .updateHealthCheck({ id: tcp.id, type: 'healthcheck.heartbeat', config: {} });
      const token = becameHeartbeat.heartbeatToken!;
      expect((await beat(token)).status).toBe(200);
      await h.as(manager).updateHealthCheck({
        id: tcp.id,
        type: 'healthcheck.tcp',
        config: { host: '10.0.0.1', port: 5432 },
      });
      expect((await beat(token)).status).toBe(404);
    });
  });

  describe('refuses the wrong caller', () => {
    it('answers 404 alike for a wrong secret, an unknown check and a malformed token', async () => {
      const { check, token } = await heartbeatCheck();
      const wrongSecret = `hb_${check.id}_${'A'.repeat(43)}`;
      const unknownCheck = token.replace(check.id, '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11');
      for (const bad of [wrongSecret, unknownCheck, 'hb_nope', token.slice(0, -1), `${token}x`]) {
        const response = await beat(bad);
        expect(response.status, bad).toBe(404);
        expect(await response.json()).toMatchObject({
          code: 'NOT_FOUND',
          message: 'Unknown heartbeat token',
        });
      }
      const [stored] = await database.db
        .select()
        .from(heartbeats)
        .where(eq(heartbeats.healthCheckId, check.id));
      expect(stored!.lastBeatAt).toBeNull();
    });

    it('refuses to rotate a token of a check that is no heartbeat check, or for a reader', async () => {
      const { check } = await heartbeatCheck();
      await expect(h.as(reader).rotateHeartbeatToken({ id: check.id })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
      const tcp = await h.as(manager).createHealthCheck({
        systemId: check.systemId,
        name: 'tcp',
        type: 'healthcheck.tcp',
        config: { host: '10.0.0.1', port: 5432 },
      });
      await expect(h.as(manager).rotateHeartbeatToken({ id: tcp.id })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: 'Only heartbeat checks have a token',
      });
    });
  });

  describe('rejects bad input', () => {
    it('refuses a negative or huge grace and unknown keys', async () => {
      const system = await h.createSystem();
      for (const config of [{ graceSeconds: -1 }, { graceSeconds: 100_000 }, { token: 'mine' }]) {
        await expect(
          h.as(manager).createHealthCheck({
            systemId: system.id,
            name: 'hb',
            type: 'healthcheck.heartbeat',
            config,
          }),
        ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      }
    });
  });
});
