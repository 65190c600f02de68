import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const webFolder = fileURLToPath(new URL('..', import.meta.url));
export const distFolder = join(webFolder, 'dist');
const repositoryRoot = join(webFolder, '..', '..');
const stampFile = join(distFolder, '.build-stamp');

const skipped = new Set(['node_modules', 'dist', 'e2e', '.turbo', '.vitest', 'drizzle']);

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : filesUnder(path);
    return /\.test\.tsx?$/.test(entry.name) ? [] : [path];
  });
}

/** The folders of the workspace packages `manifest` depends on, and theirs, transitively. */
export function workspaceDependencyFolders(
  manifest: string,
  folders = new Set<string>(),
): Set<string> {
  const packages = join(repositoryRoot, 'packages');
  const { dependencies = {}, devDependencies = {} } = JSON.parse(
    readFileSync(manifest, 'utf8'),
  ) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const wanted = Object.entries({ ...dependencies, ...devDependencies })
    .filter(([, version]) => version.startsWith('workspace:'))
    .map(([name]) => name);
  for (const folder of readdirSync(packages)) {
    const packageManifest = join(packages, folder, 'package.json');
    if (!existsSync(packageManifest) || folders.has(folder)) continue;
    const { name } = JSON.parse(readFileSync(packageManifest, 'utf8')) as { name?: string };
    if (!name || !wanted.includes(name)) continue;
    folders.add(folder);
    workspaceDependencyFolders(packageManifest, folders);
  }
  return folders;
}

/**
 * A hash of everything the bundle is made from: the app's sources and config, the sources of the
 * workspace packages it depends on (the contracts and what they import; a package the app does not
 * depend on, such as one a test generates for a moment, does not count) and the lockfile.
 * Content, not mtimes: a fresh checkout has new mtimes and the same build.
 */
export function sourceFingerprint(): string {
  const packages = join(repositoryRoot, 'packages');
  const files = [
    ...filesUnder(join(webFolder, 'src')),
    ...filesUnder(join(webFolder, 'public')),
    ...['index.html', 'vite.config.ts', 'package.json'].map((name) => join(webFolder, name)),
    ...filesUnder(join(webFolder, 'scripts')),
    ...[...workspaceDependencyFolders(join(webFolder, 'package.json'))].flatMap((name) => [
      ...filesUnder(join(packages, name, 'src')),
      join(packages, name, 'package.json'),
    ]),
    join(repositoryRoot, 'pnpm-lock.yaml'),
  ].filter((file) => existsSync(file));
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    hash
      .update(relative(repositoryRoot, file))
      .update('\0')
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex');
}

export function isBuildCurrent(fingerprint = sourceFingerprint()): boolean {
  return (
    existsSync(join(distFolder, 'index.html')) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8').trim() === fingerprint
  );
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** Each asset's size and its size with gzip, and the total the browser downloads with gzip. */
export function bundleSizeReport(): string {
  const assets = filesUnder(join(distFolder, 'assets')).filter((file) => /\.(js|css)$/.test(file));
  let totalGzip = 0;
  const lines = assets.map((file) => {
    const content = readFileSync(file);
    const gzip = gzipSync(content, { level: 9 }).length;
    totalGzip += gzip;
    return `  ${relative(distFolder, file)}  ${kB(statSync(file).size)} (gzip ${kB(gzip)})`;
  });
  return `web UI bundle, gzip ${kB(totalGzip)} in all:\n${lines.join('\n')}`;
}

/** Builds the UI with Vite (the bundle guard runs inside) and stamps the build with its sources. */
export async function buildWeb(): Promise<void> {
  const fingerprint = sourceFingerprint();
  // Loaded here: checking the stamp alone should not pay for loading Vite.
  const { build } = await import('vite');
  // A test runner sets NODE_ENV=test, and Vite would then bundle React's development build.
  process.env.NODE_ENV = 'production';
  await build({ root: webFolder, logLevel: 'warn' });
  writeFileSync(stampFile, `${fingerprint}\n`);
  console.log(bundleSizeReport());
}

/**
 * Builds only when apps/web/dist is missing or older than its sources; says which. Processes that
 * ask at the same time (`pnpm start` in a server test, the browser tests' setup) take turns on a
 * lock folder, so two Vite builds never write into dist at once and the second finds it current.
 */
export async function buildWebIfStale(): Promise<void> {
  if (isBuildCurrent()) {
    console.log('web UI: the build in apps/web/dist is current');
    return;
  }
  await withBuildLock(async () => {
    if (isBuildCurrent()) {
      console.log('web UI: the build in apps/web/dist is current');
      return;
    }
    console.log('web UI: building apps/web/dist (missing or out of date)...');
    await buildWeb();
  });
}

const lockFolder = join(webFolder, '.build-lock');
/** A lock older than this belongs to a build that died; it is taken over. */
const staleLockMs = 10 * 60_000;

async function withBuildLock(work: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lockFolder);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = statSync(lockFolder, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > staleLockMs) {
        rmSync(lockFolder, { recursive: true, force: true });
      } else if (held) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }
  try {
    await work();
  } finally {
    rmSync(lockFolder, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const run = process.argv.includes('--if-stale') ? buildWebIfStale : buildWeb;
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
