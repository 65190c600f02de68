import type { PluginRoute } from '@checkline/core';
import type { BeatBudget } from './beat-rate-limit.ts';
import { recordBeat } from './store.ts';

const answer = (status: number, body: Record<string, unknown>) =>
  Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

/**
 * `POST /api/healthcheck/heartbeat/{token}`: no session, the token is the credential. A wrong
 * or unknown token answers 404 alike, saying nothing about which checks exist. A check past its
 * beat budget answers 429 with `Retry-After` (thrown, so the server's error answer carries it).
 */
export function heartbeatRoute(deps: { now: () => Date; beats: BeatBudget }): PluginRoute {
  return {
    method: 'POST',
    path: '/heartbeat/:token',
    secretParams: ['token'],
    async handle(_request, params, meta) {
      const beat = await recordBeat(meta.db, params.token ?? '', deps.now(), (healthCheckId) =>
        deps.beats.consume(healthCheckId),
      );
      if (!beat) {
        return answer(404, {
          code: 'NOT_FOUND',
          message: 'Unknown heartbeat token',
          requestId: meta.requestId,
        });
      }
      return answer(200, { ok: true });
    },
    openapi: () => ({
      '/heartbeat/{token}': {
        post: {
          tags: ['healthcheck'],
          operationId: 'healthcheck.heartbeat',
          summary: 'Records a beat of a heartbeat check; the token is its credential.',
          description:
            'Called by the job a heartbeat check watches, without a session. The token was answered once, when the check was created (or its token rotated).',
          security: [],
          parameters: [
            {
              name: 'token',
              in: 'path',
              required: true,
              schema: { type: 'string', maxLength: 100 },
              description: 'The heartbeat token, `hb_{healthCheckId}_{secret}`.',
            },
          ],
          responses: {
            '200': {
              description: 'The beat is recorded.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { ok: { type: 'boolean', const: true } },
                    required: ['ok'],
                  },
                },
              },
            },
            '404': { $ref: '#/components/responses/NotFound' },
            '429': { $ref: '#/components/responses/TooManyRequests' },
          },
        },
      },
    }),
  };
}
