import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient, generatedClientFolder } from '../src/openapi-files.ts';
import {
  catalogCreateSystem,
  catalogDeleteSystem,
  catalogGetSystems,
  catalogUpdateSystem,
} from './generated/client/index.ts';
import { createClient } from './generated/client/client/index.ts';
import { testPrincipals } from './support/principals.ts';
import { runTool, serverFolder } from './support/run-tool.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let listening: { url: string; close(): Promise<void> };
let freshClient: string;

beforeAll(async () => {
  server = await createTestServer({ principals: testPrincipals });
  listening = await server.listen();
  // Inside apps/server (gitignored), so the type check resolves the workspace's TypeScript setup.
  const artifacts = join(serverFolder, 'test', 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  freshClient = mkdtempSync(join(artifacts, 'client-'));
  await generateClient(server.checkline.openapi, new URL(`file://${freshClient}/client/`));
}, 120_000);
afterAll(async () => {
  rmSync(freshClient, { recursive: true, force: true });
  await listening.close();
  await server.close();
});

const filesUnder = (folder: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name);
        return [relative(folder, path), readFileSync(path, 'utf8')];
      }),
  );

const clientAs = (token: string) =>
  createClient({ baseUrl: listening.url, headers: { authorization: `Bearer ${token}` } });

describe('a client generated from the document with @hey-api/openapi-ts', () => {
  it('is the committed test/generated/client (run `pnpm openapi` after changing a contract)', () => {
    expect(filesUnder(join(freshClient, 'client'))).toEqual(
      filesUnder(fileURLToPath(generatedClientFolder)),
    );
  });

  it('type-checks under the workspace strict settings, and so does code calling it', async () => {
    writeFileSync(
      join(freshClient, 'use-client.ts'),
      [
        "import { createClient } from './client/client/index.ts';",
        "import { catalogGetSystems, type System } from './client/index.ts';",
        '',
        'export async function systemNamesTagged(tag: string): Promise<string[]> {',
        "  const client = createClient({ baseUrl: 'http://127.0.0.1:3000' });",
        '  const { data } = await catalogGetSystems({ client, query: { tags: [tag] } });',
        '  return (data?.systems ?? []).map((system: System) => system.name);',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(freshClient, 'tsconfig.json'),
      JSON.stringify({
        extends: join(serverFolder, 'tsconfig.json'),
        compilerOptions: { rootDir: '.', types: [], lib: ['ES2023', 'DOM', 'DOM.Iterable'] },
        include: ['client', 'use-client.ts'],
      }),
    );
    const result = await runTool('tsc', ['--noEmit', '-p', join(freshClient, 'tsconfig.json')]);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 180_000);

  it('drives the REST surface: POST, GET with a one-element array, PATCH and DELETE', async () => {
    const manager = clientAs('manager');
    const created = await catalogCreateSystem({
      client: manager,
      body: { name: 'generated-client', tags: ['gen', 'rest'] },
    });
    expect(created.response.status).toBe(200);
    const id = created.data!.id;

    const listed = await catalogGetSystems({
      client: clientAs('reader'),
      query: { tags: ['gen'] },
    });
    expect(listed.response.status).toBe(200);
    expect(listed.data?.systems.map((system) => system.id)).toEqual([id]);

    const both = await catalogGetSystems({
      client: clientAs('reader'),
      query: { tags: ['gen', 'rest'] },
    });
    expect(both.data?.systems.map((system) => system.id)).toEqual([id]);

    const updated = await catalogUpdateSystem({
      client: manager,
      body: { id, description: 'from the generated client' },
    });
    expect(updated.data?.description).toBe('from the generated client');

    const deleted = await catalogDeleteSystem({ client: manager, body: { id } });
    expect(deleted.data).toEqual({ id, deleted: true });
  });

  it('reads the error object of a refused call', async () => {
    const result = await catalogCreateSystem({
      client: clientAs('reader'),
      body: { name: 'not allowed' },
    });
    expect(result.response.status).toBe(403);
    expect(result.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: catalog.catalog.manage',
    });
  });
});
