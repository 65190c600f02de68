import { silentLogger } from '@checkline/core';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { startHttpServer } from './http-server.ts';

describe('startHttpServer().drain()', () => {
  it('lets an in-flight request finish, refuses new connections, then resolves', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const app = new Hono().get('/slow', async (c) => {
      arrived();
      await released;
      return c.json({ finished: true });
    });
    const http = await startHttpServer(app.fetch, { port: 0, host: '127.0.0.1' }, silentLogger);

    const slow = fetch(`${http.url}/slow`);
    await inFlight;
    let drained = false;
    const draining = http.drain().then(() => (drained = true));

    await expect(fetch(`${http.url}/slow`)).rejects.toThrow();
    expect(drained).toBe(false);

    release();
    const response = await slow;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await draining;
    expect(drained).toBe(true);
  });
});
