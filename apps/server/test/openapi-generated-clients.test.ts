import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedClientFolder } from '../src/openapi-files.ts';
import type { ScenarioInput, ScenarioOutcome } from './client-scenarios/scenario.ts';
import { createAdminKey } from './support/admin-key.ts';
import { runTool, serverFolder } from './support/run-tool.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 24: clients generated from the served document by openapi-typescript + openapi-fetch and
 * by orval, and the client @hey-api/openapi-ts generated into test/generated/client (checked
 * against a fresh generation by openapi-client.test.ts), type-check under --strict with
 * exactOptionalPropertyTypes, and each runs one scenario (test/client-scenarios) against the real
 * server on a port.
 */
const scenarios = new URL('./client-scenarios/', import.meta.url);
const shared = ['scenario.ts', 'sse-events.ts', 'page-to-end.ts'];

let server: TestServer;
let listening: { url: string; close(): Promise<void> };
let adminKey: string;
let reader: { id: string; cookie: string };
let workFolder: string;

const folderFor = (generator: string) => join(workFolder, generator);

function copyScenario(generator: string, files: string[]): void {
  for (const file of [...shared, ...files]) {
    copyFileSync(new URL(file, scenarios), join(folderFor(generator), file));
  }
}

/**
 * @hey-api/openapi-ts copies its fetch runtime (client/, core/) beside the code it generates, and
 * that runtime does not compile with exactOptionalPropertyTypes (hey-api/hey-api#2363, open). It
 * is hey-api's code, not drawn from the document, and openapi-client.test.ts type-checks it under
 * the workspace's settings; in the copy type-checked here it is replaced by its declarations, as a
 * package ships, so the flag applies to what the document produced (types.gen.ts, sdk.gen.ts) and
 * to the scenario calling it.
 */
async function declareHeyApiRuntime(clientFolder: string): Promise<void> {
  const configFile = join(clientFolder, 'runtime.tsconfig.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      extends: join(serverFolder, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: '.',
        outDir: '.',
        types: [],
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      },
      include: ['client', 'core'],
      exclude: [],
    }),
  );
  const declared = await runTool('tsc', ['-p', configFile], { timeoutMs: 120_000 });
  expect(declared.stdout + declared.stderr).toBe('');
  for (const runtime of ['client', 'core']) {
    for (const file of readdirSync(join(clientFolder, runtime))) {
      if (file.endsWith('.ts') && !file.endsWith('.d.ts'))
        rmSync(join(clientFolder, runtime, file));
    }
  }
  rmSync(configFile);
}

async function generate(): Promise<void> {
  const served = await fetch(`${listening.url}/api/openapi.json`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  expect(served.status).toBe(200);
  const documentFile = join(workFolder, 'openapi.json');
  writeFileSync(documentFile, await served.text());

  mkdirSync(folderFor('openapi-fetch'));
  // openapi-typescript makes every property with a default required, request bodies included
  // (so `config.method` would be needed); this flag keeps them optional, as the document says.
  const typed = await runTool('openapi-typescript', [
    documentFile,
    '--default-non-nullable',
    'false',
    '-o',
    join(folderFor('openapi-fetch'), 'schema.ts'),
  ]);
  expect(typed.code, typed.stderr).toBe(0);
  copyScenario('openapi-fetch', ['openapi-fetch.ts']);

  mkdirSync(folderFor('orval'));
  const config = {
    checkline: {
      input: { target: documentFile },
      output: {
        target: join(folderFor('orval'), 'api.ts'),
        client: 'fetch',
        mode: 'single',
        override: {
          mutator: { path: join(folderFor('orval'), 'orval-fetch.ts'), name: 'checklineFetch' },
        },
      },
    },
  };
  const configFile = join(folderFor('orval'), 'orval.config.mjs');
  writeFileSync(configFile, `export default ${JSON.stringify(config)};\n`);
  copyScenario('orval', ['orval-fetch.ts', 'orval.ts']);
  const orval = await runTool('orval', ['--config', configFile], { cwd: folderFor('orval') });
  expect(orval.code, orval.stdout + orval.stderr).toBe(0);

  // Two copies of the committed client: one to run, one whose runtime is declarations only.
  for (const copy of ['hey-api', 'hey-api-declared']) {
    mkdirSync(folderFor(copy));
    cpSync(fileURLToPath(generatedClientFolder), join(folderFor(copy), 'client'), {
      recursive: true,
    });
    copyScenario(copy, ['hey-api.ts']);
  }
  await declareHeyApiRuntime(join(folderFor('hey-api-declared'), 'client'));

  writeFileSync(
    join(workFolder, 'tsconfig.json'),
    JSON.stringify({
      extends: join(serverFolder, 'tsconfig.json'),
      compilerOptions: {
        rootDir: '.',
        strict: true,
        exactOptionalPropertyTypes: true,
        types: [],
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      },
      include: ['openapi-fetch', 'orval', 'hey-api-declared'],
    }),
  );
}

beforeAll(async () => {
  server = await createTestServer();
  listening = await server.listen();
  adminKey = await createAdminKey(server);
  const email = 'generated-client-reader@example.com';
  const password = 'a sound enough password';
  const created = await server.keyed('auth', { createUser: { email, password } }, adminKey);
  const { createUser } = (await created.json()) as { createUser: { id: string } };
  reader = { id: createUser.id, cookie: (await server.sessionOf(email, password)).cookie };
  // Inside apps/server (gitignored), so imports resolve against the server's node_modules.
  const artifacts = join(serverFolder, 'test', 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  workFolder = mkdtempSync(join(artifacts, 'clients-'));
  await generate();
}, 180_000);
afterAll(async () => {
  if (workFolder) rmSync(workFolder, { recursive: true, force: true });
  await listening.close();
  await server.close();
});

const scenarioInput = (tag: string, signal: AbortSignal): ScenarioInput => ({
  baseUrl: listening.url,
  key: adminKey,
  reader: { cookie: reader.cookie, origin: testEnv.BASE_URL },
  signal,
  tag,
  async notify() {
    const sent = await server.keyed(
      'notification',
      {
        notifyUsers: {
          userIds: [reader.id],
          notification: { title: `From ${tag}`, type: 'test.generated', body: 'hello' },
        },
      },
      adminKey,
    );
    expect(sent.status).toBe(200);
  },
});

/** Runs a scenario with an abort signal that ends it (the stream included) after 30 s. */
async function runScenario(entry: string, tag: string): Promise<ScenarioOutcome> {
  const module = (await import(join(workFolder, entry))) as {
    runScenario(input: ScenarioInput): Promise<ScenarioOutcome>;
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`${tag} ran over 30 s`)), 30_000);
  try {
    return await module.runScenario(scenarioInput(tag, controller.signal));
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

describe('clients generated from the served document', () => {
  it('type-check, with the scenarios calling them, under --strict and exactOptionalPropertyTypes', async () => {
    const result = await runTool('tsc', ['--noEmit', '-p', join(workFolder, 'tsconfig.json')], {
      timeoutMs: 240_000,
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 240_000);

  it.each([
    ['openapi-typescript + openapi-fetch', 'openapi-fetch/openapi-fetch.ts', 'fetchclient'],
    ['orval', 'orval/orval.ts', 'orvalclient'],
    ['@hey-api/openapi-ts', 'hey-api/hey-api.ts', 'heyapiclient'],
  ])(
    '%s: creates a system and an HTTP check, reads its status, pages to the end, reads two events',
    async (_generator, entry, tag) => {
      const outcome = await runScenario(entry, tag);
      expect(outcome.checkType).toBe('healthcheck.http');
      expect(outcome.pagedNames.sort()).toEqual([`${tag}-first`, `${tag}-second`, `${tag}-third`]);
      expect(outcome.pages).toBe(2);
      expect(outcome.eventKinds).toHaveLength(2);
      expect(outcome.eventKinds[0]).toBe('unread');
      expect(['notification', 'unread']).toContain(outcome.eventKinds[1]);
    },
    60_000,
  );
});
