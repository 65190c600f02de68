import { spawn } from 'node:child_process';

/** One `sh` block of a walkthrough document and the marks before it. */
export interface WalkthroughStep {
  commands: string;
  /** Lines `# ...` under the commands: output the block prints (without the `# `). */
  expectedOutput: string[];
  /** Marked `<!-- walkthrough: skip ... -->`: shown to the reader, not run (starting the server). */
  skip: boolean;
  /** Marked `<!-- walkthrough: the service goes down -->`: the test takes the service down first. */
  serviceGoesDown: boolean;
}

const block = /(?:<!-- walkthrough: ([^>]*) -->\s*\n)?```sh\n([\s\S]*?)```/g;

/** The `sh` blocks of a Markdown document, in order, with their marks. */
export function walkthroughSteps(markdown: string): WalkthroughStep[] {
  return [...markdown.matchAll(block)].map(([, mark = '', commands = '']) => ({
    commands,
    expectedOutput: commands
      .split('\n')
      .filter((line) => line.startsWith('# '))
      .map((line) => line.slice(2)),
    skip: mark.startsWith('skip'),
    serviceGoesDown: mark === 'the service goes down',
  }));
}

/**
 * One bash shell in `cwd` with only `env` (and PATH), fed block after block as a reader would
 * paste them: variables and functions of one block serve the next. `set -euo pipefail`: a failing
 * command ends the shell, and `run` rejects with what it wrote to stderr.
 */
export function startShell(cwd: string, env: Record<string, string>) {
  const child = spawn('bash', ['--noprofile', '--norc'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin.write('set -euo pipefail\n');
  let step = 0;

  return {
    /** Runs `commands`; resolves with what they printed, or rejects when the shell ended. */
    async run(commands: string, timeoutMs: number): Promise<string> {
      const marker = `::walkthrough-step-${(step += 1)}-done::`;
      const from = stdout.length;
      child.stdin.write(`${commands}\necho '${marker}'\n`);
      const deadline = Date.now() + timeoutMs;
      while (!stdout.includes(marker, from)) {
        if (child.exitCode !== null) {
          throw new Error(`the shell ended (${child.exitCode}) in:\n${commands}\n${stderr}`);
        }
        if (Date.now() > deadline)
          throw new Error(`still running after ${timeoutMs} ms:\n${commands}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return stdout.slice(from, stdout.indexOf(marker, from));
    },
    async close() {
      child.stdin.end();
      if (
        (await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000, 'late'))])) === 'late'
      ) {
        child.kill('SIGKILL');
      }
    },
  };
}
