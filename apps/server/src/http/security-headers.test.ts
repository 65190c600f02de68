import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers.ts';

describe('securityHeaders', () => {
  const app = new Hono();
  app.use(
    securityHeaders([{ pathPrefix: '/docs', policy: "default-src 'self'; script-src 'self'" }]),
  );
  app.get('/docs', (c) => c.html('<p>docs</p>'));
  app.get('/api', (c) => c.json({}));
  app.get('/boom', () => {
    throw new Error('boom');
  });

  it('gives a page route its own policy, still unframeable, and the other headers', async () => {
    const response = await app.request('/docs');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps the strict policy everywhere else, thrown errors included', async () => {
    for (const path of ['/api', '/boom']) {
      const response = await app.request(path);
      expect(response.headers.get('content-security-policy'), path).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
    }
  });
});
