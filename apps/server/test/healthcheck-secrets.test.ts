import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminSessionPerFile } from './support/server-per-file.ts';

/**
 * A postgres check's password over HTTP: encrypted at rest with the server's keyring, opened
 * for the run against the machine's PostgreSQL, never answered and never logged.
 */
const PASSWORD = 'pg-s3cret-never-shown';
const fixture = adminSessionPerFile();

async function call(method: string, procedure: string, body: unknown) {
  const response = await fixture.server.rest(method, procedure, { body, headers: fixture.session });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${procedure}: ${text}`);
  return { text, json: JSON.parse(text) as Record<string, any> };
}

const storedConfig = async (id: string) => {
  const [row] = await queryRows<{ config: Record<string, unknown> }>(
    fixture.server.database.db,
    sql`select config from healthcheck.health_checks where id = ${id}`,
  );
  return row!.config;
};

describe('postgres check passwords', () => {
  it('stores the password encrypted, runs with it and never answers or logs it', async () => {
    const system = await call('POST', 'catalog/createSystem', { name: 'warehouse' });
    const created = await call('POST', 'healthcheck/createHealthCheck', {
      systemId: system.json.id,
      name: 'warehouse db',
      type: 'healthcheck.postgres',
      config: { host: '127.0.0.1', port: 5432, password: PASSWORD, ssl: 'disable' },
      intervalSeconds: 3_600,
      timeoutMs: 5_000,
    });
    expect(created.json.config).toEqual({
      host: '127.0.0.1',
      port: 5432,
      database: 'postgres',
      username: 'postgres',
      ssl: 'disable',
    });
    const id = created.json.id as string;
    const sealed = (await storedConfig(id)).password as string;
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain(PASSWORD);

    const run = await call('POST', 'healthcheck/runHealthCheck', { id });
    expect(run.json).toMatchObject({
      status: 'pass',
      message: 'SELECT 1 answered by 127.0.0.1:5432/postgres',
    });

    // A config sent again without the password keeps the stored one.
    const updated = await call('PATCH', 'healthcheck/updateHealthCheck', {
      id,
      config: { host: '127.0.0.1', port: 5432, ssl: 'disable', database: 'postgres' },
    });
    expect(updated.json.config).not.toHaveProperty('password');
    expect((await storedConfig(id)).password).toBe(sealed);
    expect((await call('POST', 'healthcheck/runHealthCheck', { id })).json.status).toBe('pass');

    const listed = await fixture.server.rest('GET', 'healthcheck/getHealthChecks', {
      query: `systemId=${system.json.id}`,
      headers: fixture.session,
    });
    const answers = [created.text, run.text, updated.text, await listed.text()];
    for (const answer of answers) expect(answer).not.toContain(PASSWORD);
    expect(answers.join('')).not.toContain(sealed);
    expect(fixture.server.logLines.join('\n')).not.toContain(PASSWORD);
  });
});
