import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PostgreSQL cluster of a test's own, in a temporary folder on a free loopback port. */
export interface ThrowawayPostgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:{port}/postgres` (trust authentication). */
  url: string;
  /** Stops the server at once (`-m immediate`): every client connection drops. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its folder. */
  destroy(): Promise<void>;
}

/** The newest installed server binaries (Debian's `/usr/lib/postgresql/{major}/bin`). */
function serverBinaries(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!majors[0]) throw new Error(`no PostgreSQL server binaries under ${root}/*/bin`);
  return join(root, majors[0], 'bin');
}

export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no loopback port');
  return address.port;
}

/** Root may not run the server: run its tools as the `postgres` account then. */
async function asServerUser(command: string, args: string[]) {
  const isRoot = process.getuid?.() === 0;
  return isRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
}

async function serverUserIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/**
 * Creates and starts a cluster (`initdb`, `pg_ctl`) that only this test uses, so a test may stop
 * and start it. It never touches the machine's own server.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = serverBinaries();
  const folder = mkdtempSync(join(tmpdir(), 'checkline-pg-'));
  const owner = await serverUserIds();
  if (owner) chownSync(folder, owner.uid, owner.gid);
  const dataDir = join(folder, 'data');
  const port = await freeLoopbackPort();
  await asServerUser(join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const settings = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (...args: string[]) => asServerUser(join(bin, 'pg_ctl'), ['-D', dataDir, ...args]);
  const start = async () => {
    await pgCtl('-o', settings, '-l', join(folder, 'server.log'), '-w', '-t', '60', 'start');
  };
  const stop = async () => {
    await pgCtl('-m', 'immediate', '-w', '-t', '60', 'stop');
  };
  await start();
  let destroyed = false;
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await stop().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
