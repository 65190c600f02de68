import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { serverFolder } from './run-tool.ts';

/** A free loopback port: Prism takes its port as an argument. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface PrismProxy {
  url: string;
  /** Everything Prism printed (its log names each violation it saw). */
  output(): string;
  close(): Promise<void>;
}

/**
 * `prism proxy --errors` for `documentFile` in front of `upstream`, in a process of its own;
 * resolves once it listens (at most `startMs`). `close` stops that process, by its PID only.
 */
export async function startPrismProxy(
  documentFile: string,
  upstream: string,
  startMs = 90_000,
): Promise<PrismProxy> {
  const port = await freePort();
  const child = spawn(
    `${serverFolder}node_modules/.bin/prism`,
    ['proxy', documentFile, upstream, '--errors', '-h', '127.0.0.1', '-p', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString('utf8'));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    process.kill(child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.pid && process.kill(child.pid, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + startMs;
  while (!output.includes('Prism is listening')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`prism did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, close: stop };
}
