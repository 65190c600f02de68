import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
/** Checks of the guide rather than parts of it: the guide does not show them. */
const NOT_SHOWN = new Set(['plugin-guide.test.ts', 'mounted.test.ts']);
const guide = readFileSync(new URL('../../plugin-guide.md', import.meta.url), 'utf8');

/** Every `<!-- example: path -->` marker of the guide with the code block that follows it. */
function exampleBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  const pattern = /<!-- example: (\S+) -->\s*```ts\n([\s\S]*?)\n```/g;
  for (const [, path, code] of markdown.matchAll(pattern)) blocks.set(path!, `${code}\n`);
  return blocks;
}

describe('the plugin guide', () => {
  const blocks = exampleBlocks(guide);
  const files = readdirSync(new URL('.', import.meta.url))
    .filter((name) => name.endsWith('.ts') && !NOT_SHOWN.has(name))
    .map((name) => `src/${name}`);

  it('shows TypeScript only from example files', () => {
    expect(guide.match(/```ts\n/g)?.length).toBe(blocks.size);
  });

  it('shows every example file', () => {
    expect([...blocks.keys()].sort()).toEqual(files.sort());
  });

  it.each(files)('shows %s exactly as it is', (path) => {
    expect(blocks.get(path)).toBe(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));
  });

  it('typechecks its examples with the workspace settings', { timeout: 240_000 }, async () => {
    const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
    const run = promisify(execFile)(tsc, ['--noEmit', '-p', packageDir]);
    await expect(run).resolves.toBeDefined();
  });
});
