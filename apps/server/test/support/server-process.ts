import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverFolder = fileURLToPath(new URL('../..', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../../../..', import.meta.url));

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/**
 * The real server in a process of its own, started as `pnpm start` starts it (`node --import
 * tsx src/main.ts start`), or through `pnpm start` itself, with only the environment given here:
 * the test's own `DATABASE_URL` must not leak into it.
 */
export function startServerProcess(
  env: Record<string, string>,
  { viaPnpm = false }: { viaPnpm?: boolean } = {},
) {
  const [command, args, cwd] = viaPnpm
    ? ['pnpm', ['start'], repositoryRoot]
    : [process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], serverFolder];
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const rawLines: string[] = [];
  let stderr = '';
  let waiters: (() => void)[] = [];
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts.filter(Boolean)) {
      rawLines.push(part);
      try {
        lines.push(JSON.parse(part) as LogLine);
      } catch {
        lines.push({ level: -1, msg: part });
      }
    }
    notify();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      notify();
      resolve({ code, signal });
    }),
  );

  /** Resolves with the first log line that matches, or fails after `timeoutMs` or on exit. */
  async function waitForLog(match: (line: LogLine) => boolean, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find(match);
      if (found) return found;
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited (${child.exitCode}) before the log line came: ${stderr}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such log line within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done() {
          clearTimeout(timer);
          waiters = waiters.filter((waiter) => waiter !== done);
          resolve();
        }
        waiters.push(done);
      });
    }
  }

  /** The exit of the process, or `undefined` if it is still running after `timeoutMs`. */
  async function exitWithin(timeoutMs: number) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    const result = await Promise.race([exited, late]);
    clearTimeout(timer);
    return result;
  }

  return {
    pid: child.pid!,
    lines,
    rawLines,
    stderr: () => stderr,
    alive: () => child.exitCode === null && child.signalCode === null,
    waitForLog,
    exitWithin,
    signal: (name: NodeJS.Signals) => child.kill(name),
    /** Makes sure the process is gone (test clean-up): SIGTERM, then SIGKILL. */
    async dispose() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if ((await exitWithin(15_000)) === undefined) child.kill('SIGKILL');
      await exited;
    },
  };
}

export type ServerProcess = ReturnType<typeof startServerProcess>;

/**
 * Runs a one-shot command of the server (`node --import tsx src/main.ts <command>`) with only the
 * environment given here, bounded in time; never throws on exit codes.
 */
export function runServerCommand(
  command: string,
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', command],
      {
        cwd: serverFolder,
        timeout: timeoutMs,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
