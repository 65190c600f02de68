import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { Hono } from 'hono';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';

/** Paths the API owns: never answered with the UI, so their 404s stay JSON. */
export const apiPathPrefixes = [
  '/api',
  '/rest',
  '/healthz',
  '/readyz',
  '/livez',
  '/metrics',
  '/status-api',
];

/**
 * The UI's policy: scripts only from this server (no inline script), styles inline too because
 * Mantine sets CSS variables in `style` attributes and a `<style>` element; API calls to itself.
 */
export const webUiContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'";

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** Vite names what is under /assets/ by its content hash: a new build gets new names. */
const immutable = 'public, max-age=31536000, immutable';

interface StaticFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
}

const isApiPath = (path: string) =>
  apiPathPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** Every file of the build by its URL path, read once (dot-files such as the build stamp left out). */
function readBuild(distDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const urlPath = `/${relative(distDir, path).split(sep).join('/')}`;
        const type = contentTypes[extname(entry.name)] ?? 'application/octet-stream';
        files.set(urlPath, { body: new Uint8Array(readFileSync(path)), type });
      }
    }
  };
  walk(distDir);
  return files;
}

const notBuiltPage = (distDir: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkline: the web UI is not built</title></head>
<body><main><h1>The web UI has not been built</h1>
<p>The API is running; the browser UI was not found in <code>${escapeHtml(distDir)}</code>.</p>
<p>Build it with <code>pnpm --filter @checkline/web build</code>, or start the server with
<code>pnpm start</code>, which builds it when it is missing or out of date. Then restart the server.</p>
</main></body></html>`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Serves the web UI's production build: its files, and `index.html` for every other GET outside
 * the API (the UI's routes, such as `/auth/error` or `/systems/{id}`). Without a build the server
 * still runs and those paths answer 503 with a page saying how to build it. The build is read at
 * start-up; a new build is served after a restart.
 */
export function mountWebUi(app: Hono<AppEnv>, distDir: string) {
  const built = existsSync(join(distDir, 'index.html'));
  const files = built ? readBuild(distDir) : new Map<string, StaticFile>();
  const index = files.get('/index.html');

  app.get('*', (c, next) => {
    const path = c.req.path;
    if (isApiPath(path)) return next();
    if (!index) {
      return c.html(notBuiltPage(distDir), 503, { 'cache-control': 'no-store' });
    }
    const file = files.get(path);
    if (file && path !== '/index.html') {
      return c.body(file.body, 200, {
        'content-type': file.type,
        'cache-control': path.startsWith('/assets/') ? immutable : 'no-cache',
      });
    }
    // A missing file (`/assets/old-hash.js`) is a 404, not the app's page with status 200.
    const lastSegment = path.slice(path.lastIndexOf('/') + 1);
    if (lastSegment.includes('.')) return errorResponse('NOT_FOUND', 'Not found', c.var.requestId);
    return c.body(index.body, 200, { 'content-type': index.type, 'cache-control': 'no-cache' });
  });
}
