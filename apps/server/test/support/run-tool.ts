import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const serverFolder = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a dev tool from apps/server's node_modules/.bin, bounded in time; never throws on exit codes. */
export function runTool(
  tool: string,
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      `${serverFolder}node_modules/.bin/${tool}`,
      args,
      {
        cwd: options.cwd ?? serverFolder,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 32 * 1024 * 1024,
        env: { ...process.env, ...options.env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
