import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Scalar } from '@scalar/hono-api-reference';
import type { OpenAPI } from '@orpc/openapi';
import type { Hono } from 'hono';
import { documentForReference } from './docs-document.ts';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';
import type { WithScope } from './scoped.ts';

const SCRIPT_PATH = '/api/docs/scalar.js';
const DOCUMENT_PATH = '/api/docs/openapi.json';

/** The page `info.license.url` of the OpenAPI document names. */
export const LICENCE_PATH = '/api/docs/licence';

const licenceText = [
  'Checkline: licence',
  '',
  'No licence is granted. The repository holds no licence file and none of its packages names a',
  'licence, so all rights stay with its authors until they choose one. Calling a Checkline server',
  'you are allowed to use is not affected; copying or redistributing the code is.',
  '',
].join('\n');

/** Scalar's single-file browser bundle, from the installed `@scalar/api-reference` (no CDN). */
const scriptFile = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser',
  'standalone.js',
);

/**
 * `GET /api/docs`: an interactive reference of `/api/openapi.json` (Scalar), for the same callers
 * the document is served to; it reads the copy at `/api/docs/openapi.json` titled by procedure
 * names (`documentForReference`). Everything it loads comes from this server: the script from the
 * installed package; no web fonts, no telemetry, no hosted AI or MCP features.
 */
export function mountDocsRoutes(
  app: Hono<AppEnv>,
  withScope: WithScope,
  document: OpenAPI.Document,
) {
  const shownJson = JSON.stringify(documentForReference(document));
  const reference = Scalar<AppEnv>({
    url: DOCUMENT_PATH,
    pageTitle: 'Checkline API reference',
    cdn: SCRIPT_PATH,
    withDefaultFonts: false,
    telemetry: false,
    // Hosted Scalar services (AI agent, MCP) would reach outside this server.
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    // A signed-in reader's requests ride on the session cookie the browser holds, not on an empty
    // bearer token.
    authentication: { preferredSecurityScheme: 'sessionCookie' },
  });
  app.get(LICENCE_PATH, (c) =>
    c.body(licenceText, 200, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  );
  let script: Promise<string> | undefined;
  app.get(SCRIPT_PATH, async (c) => {
    script ??= readFile(scriptFile, 'utf8');
    return c.body(await script, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    });
  });
  app.get(DOCUMENT_PATH, (c) =>
    withScope(c, async (context) =>
      context.principal.kind === 'anonymous'
        ? errorResponse('UNAUTHORIZED', 'Authentication required', c.var.requestId)
        : new Response(shownJson, { headers: { 'content-type': 'application/json' } }),
    ),
  );
  app.get('/api/docs', (c) =>
    withScope(c, async (context) =>
      context.principal.kind === 'anonymous'
        ? errorResponse('UNAUTHORIZED', 'Sign in to read the API reference', c.var.requestId)
        : ((await reference(c, async () => {})) ??
          errorResponse('NOT_FOUND', 'Not found', c.var.requestId)),
    ),
  );
}
