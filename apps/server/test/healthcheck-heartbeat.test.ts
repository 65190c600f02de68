import { describe, expect, it } from 'vitest';
import { createHeartbeatCheck, heartbeatPath } from './support/heartbeat-check.ts';
import { adminSessionPerFile } from './support/server-per-file.ts';

/**
 * Heartbeat checks over HTTP: the token answered once at creation, beats posted by a job
 * without any session, and the token kept out of every later answer and of the log.
 */
const fixture = adminSessionPerFile();

async function rest(procedure: string, body: unknown) {
  const response = await fixture.server.rest('POST', procedure, { body, headers: fixture.session });
  const answer = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${procedure}: ${JSON.stringify(answer)}`);
  return answer;
}

/** What a job does: a bare POST, no cookie, no key. */
const beat = (token: string) => fixture.server.request(heartbeatPath(token), { method: 'POST' });

const heartbeatCheck = () => createHeartbeatCheck(rest, `backups-${Date.now()}`, 'nightly backup');

describe('heartbeat over HTTP', () => {
  it('records a beat posted without a session and passes the next run', async () => {
    const { check, token } = await heartbeatCheck();
    expect(token).toMatch(/^hb_/);
    const response = await beat(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ ok: true });
    expect(await rest('healthcheck/runHealthCheck', { id: check.id })).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/^Last beat \d+ s ago$/),
    });
  });

  it('answers 404 for a bad token, and only POST records a beat', async () => {
    const { check, token } = await heartbeatCheck();
    const wrong = `hb_${check.id}_${'x'.repeat(43)}`;
    const refused = await beat(wrong);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await fixture.server.request(heartbeatPath(token), { method: 'GET' })).status).toBe(
      404,
    );
    expect(await rest('healthcheck/runHealthCheck', { id: check.id })).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/^Waiting for the first beat/),
    });
  });

  it('takes 60 beats a minute per check, refusing more with Retry-After; wrong tokens spend none', async () => {
    const { check, token } = await heartbeatCheck();
    const wrong = `hb_${check.id}_${'x'.repeat(43)}`;
    for (let index = 0; index < 70; index++) expect((await beat(wrong)).status).toBe(404);
    const statuses: number[] = [];
    for (let index = 0; index < 60; index++) statuses.push((await beat(token)).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const refused = await beat(token);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another check's budget is its own.
    expect((await beat((await heartbeatCheck()).token)).status).toBe(200);
  });

  it('never shows the token again, nor writes it to the log', async () => {
    const { systemId, token } = await heartbeatCheck();
    await beat(token);
    await beat(`${token}x`);
    const secret = token.slice(-43);
    const listed = await fixture.server.rest('GET', 'healthcheck/getHealthChecks', {
      query: `systemId=${systemId}`,
      headers: fixture.session,
    });
    expect(listed.status).toBe(200);
    const body = await listed.text();
    expect(body).toContain('nightly backup');
    expect(body).not.toContain(secret);
    const lines = fixture.server.logLines.join('\n');
    expect(lines).toContain('/api/healthcheck/heartbeat/:token');
    expect(lines).not.toContain(secret);
  });
});
