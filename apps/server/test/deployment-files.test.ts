import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { DockerfileParser } from 'dockerfile-ast';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { envVariableNames, loadEnv } from '../src/env.ts';
import { listeningServerPerFile } from './support/server-per-file.ts';

/**
 * What can be checked of the Dockerfile and compose file on a machine without image pulls (no
 * `docker build` runs here, see docs/deployment.md): they parse; every command they run exists
 * (pnpm scripts, the server's CLI commands, files); every variable they set is one the server
 * reads and its own parser accepts them; the HEALTHCHECK command passes against a real server.
 */
const execFileAsync = promisify(execFile);
const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const rootPackage = JSON.parse(read('package.json')) as {
  packageManager: string;
  scripts: Record<string, string>;
};

const dockerfile = DockerfileParser.parse(read('Dockerfile'));
const instructions = dockerfile.getInstructions();
const stages = dockerfile.getFROMs();
/** Instructions of the last stage (the image that runs), in order. */
const finalStage = instructions.filter(
  (instruction) => instruction.getRange().start.line > stages.at(-1)!.getRange().start.line,
);
const args = (instruction: { getArguments(): { getValue(): string }[] }) =>
  instruction.getArguments().map((argument) => argument.getValue());
const jsonArray = (instruction: { getRawArgumentsContent(): string | null }) =>
  JSON.parse(instruction.getRawArgumentsContent() ?? '[]') as string[];

/** `${NAME:?message}`, `${NAME:-default}` and `${NAME}` as compose fills them in from `values`. */
function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind, rest: string) => {
    const value = values[name];
    if (value !== undefined && value !== '') return value;
    if (kind === '?') throw new Error(`${name} is required: ${rest}`);
    return kind === '-' ? rest : '';
  });
}

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  expose?: string[];
}

const secrets = {
  POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  METRICS_TOKEN: randomBytes(32).toString('hex'),
};
const compose = parseYaml(interpolate(read('compose.yaml'), secrets)) as {
  services: Record<string, ComposeService>;
};

/** The server CLI's commands, as its usage line lists them (`main.ts` run for real). */
async function serverCommands(): Promise<string[]> {
  const run = execFileAsync(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/main.ts', 'no-such-command'],
    { cwd: root },
  );
  const failure = await run.then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failure?.code).toBe(2);
  const usage = /usage: main\.ts \[([^\]]+)\]/.exec(failure!.stderr)?.[1];
  return usage?.split('|') ?? [];
}

/** `node --import tsx {file} {command}`: the file exists and the command is the CLI's. */
function expectServerCommand(argv: string[], commands: string[]) {
  expect(argv.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
  expect(existsSync(new URL(argv[3]!, root))).toBe(true);
  expect(commands).toContain(argv[4]);
}

let commands: string[];
beforeAll(async () => {
  commands = await serverCommands();
});

describe('the Dockerfile', () => {
  it('builds on Node 20 in every stage and installs the pnpm the repository pins, from npm', () => {
    expect(stages.map((stage) => stage.getImageName())).toEqual(['node', 'node']);
    for (const stage of stages) expect(stage.getImageTag()).toMatch(/^20(\.|-|$)/);
    const pinned = rootPackage.packageManager.replace(/^pnpm@/, '');
    const installs = instructions
      .filter((instruction) => instruction.getKeyword() === 'RUN')
      .map(args)
      .filter((argv) => argv[0] === 'npm');
    expect(installs).toEqual([['npm', 'install', '--global', `pnpm@${pinned}`]]);
    expect(pinned).toMatch(/^10\./);
  });

  it('runs only pnpm commands and scripts that exist, the lockfile frozen', () => {
    const runs = instructions
      .filter((instruction) => instruction.getKeyword() === 'RUN')
      .map(args)
      .filter((argv) => argv[0] === 'pnpm');
    expect(runs).toContainEqual(['pnpm', 'install', '--frozen-lockfile']);
    for (const argv of runs) {
      const builtIn = ['install', 'prune'].includes(argv[1]!);
      expect(builtIn || argv[1]! in rootPackage.scripts, argv.join(' ')).toBe(true);
    }
  });

  it("sets only variables the server reads, and the server's parser accepts them", () => {
    const env = Object.fromEntries(
      finalStage
        .filter((instruction) => instruction.getKeyword() === 'ENV')
        .flatMap((instruction) =>
          (
            instruction as unknown as {
              getProperties(): { getName(): string; getValue(): string }[];
            }
          )
            .getProperties()
            .map((property) => [property.getName(), property.getValue()]),
        ),
    ) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(
      ['DATA_DIR', 'HOST', 'NODE_ENV', 'PORT', 'WEB_DIST_DIR'].sort(),
    );
    for (const name of Object.keys(env)) expect(envVariableNames).toContain(name);
    // Production refuses to start without the key: the image cannot run with a generated one.
    expect(() => loadEnv(env)).toThrow(/ENCRYPTION_KEY: required when NODE_ENV=production/);
    const parsed = loadEnv({ ...env, ENCRYPTION_KEY: secrets.ENCRYPTION_KEY });
    expect(parsed).toMatchObject({ HOST: '0.0.0.0', PORT: 3000, DATA_DIR: '/data' });
  });

  it('starts the server through its CLI, as a user other than root', () => {
    const cmd = finalStage.find((instruction) => instruction.getKeyword() === 'CMD')!;
    expectServerCommand(jsonArray(cmd), commands);
    expect(commands).toContain('start');
    const user = finalStage.find((instruction) => instruction.getKeyword() === 'USER');
    expect(user && args(user)).toEqual(['node']);
  });

  it('leaves dependencies, builds and local data out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', 'data', '.env', '.git']) {
      expect(ignored).toContain(entry);
    }
  });

  describe('its HEALTHCHECK, run against a real server', () => {
    const fixture = listeningServerPerFile();

    const healthcheck = () => {
      const instruction = finalStage.find((item) => item.getKeyword() === 'HEALTHCHECK')!;
      const raw = instruction.getRawArgumentsContent()!;
      expect(raw).toMatch(/\bCMD \[/);
      return JSON.parse(raw.slice(raw.indexOf('CMD [') + 4)) as string[];
    };
    const runWithPort = (port: string) => {
      const argv = healthcheck();
      return execFileAsync(process.execPath, argv.slice(1), {
        env: { PORT: port },
        timeout: 10_000,
      }).then(
        () => 0,
        (error: { code: number }) => error.code,
      );
    };

    it('passes while the server answers, and fails where none listens', async () => {
      expect(healthcheck()[0]).toBe('node');
      expect(await runWithPort(new URL(fixture.url).port)).toBe(0);
      const closed = await createServerPortThatRefuses();
      expect(await runWithPort(closed)).toBe(1);
    });
  });
});

/** A loopback port with nothing listening on it (bound, then closed). */
async function createServerPortThatRefuses(): Promise<string> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return String(port);
}

describe('compose.yaml', () => {
  const { services } = compose;

  it('refuses to start without the secrets it needs', () => {
    for (const name of Object.keys(secrets)) {
      expect(() => interpolate(read('compose.yaml'), { ...secrets, [name]: '' })).toThrow(name);
    }
  });

  it('migrates once PostgreSQL is healthy, and starts the servers once migrated', () => {
    expect(Object.keys(services).sort()).toEqual(['migrate', 'postgres', 'proxy', 'server']);
    expect(services.migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services.server!.depends_on).toEqual({
      migrate: { condition: 'service_completed_successfully' },
    });
    expectServerCommand(services.migrate!.command!, commands);
    expect(services.migrate!.command![4]).toBe('migrate');
    expect(services.migrate!.build).toBe('.');
    expect(services.server!.image).toBe(services.migrate!.image);
  });

  it('gives every process one environment of variables the server reads, which its parser accepts', () => {
    const { migrate, server, postgres } = services;
    expect(server!.environment).toEqual(migrate!.environment);
    const env = server!.environment!;
    for (const name of Object.keys(env)) expect(envVariableNames).toContain(name);
    const parsed = loadEnv(env);
    expect(parsed.NODE_ENV).toBe('production');
    expect(parsed.METRICS_TOKEN).toBe(secrets.METRICS_TOKEN);
    const url = new URL(parsed.DATABASE_URL!);
    expect(url.hostname).toBe('postgres');
    expect(decodeURIComponent(url.password)).toBe(postgres!.environment!.POSTGRES_PASSWORD);
    expect(url.username).toBe(postgres!.environment!.POSTGRES_USER);
    expect(url.pathname).toBe(`/${postgres!.environment!.POSTGRES_DB}`);
  });

  it('puts the proxy in front of the servers on the port they listen on, and keeps /metrics off it', () => {
    const mount = services.proxy!.volumes![0]!.split(':')[0]!;
    const nginx = read(mount.replace(/^\.\//, ''));
    const port = loadEnv(services.server!.environment).PORT;
    expect(services.server!.expose).toEqual([String(port)]);
    expect(nginx).toContain(`server server:${port};`);
    expect(nginx).toMatch(/location = \/metrics \{\s*return 404;/);
  });
});
