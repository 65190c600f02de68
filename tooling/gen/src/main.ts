import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { generatePackage, isPackageKind } from './generate.ts';

const usage = 'Usage: pnpm gen <plugin|channel|check-type> <name in kebab-case>';
const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));

const [kind, name, ...rest] = process.argv.slice(2);
if (!kind || !name || rest.length > 0 || !isPackageKind(kind)) {
  console.error(usage);
  process.exit(2);
}
try {
  const packageDir = await generatePackage(kind, name, workspaceRoot);
  const folder = relative(workspaceRoot, packageDir);
  console.log(`Created ${folder}. Next: pnpm install --prefer-offline, then`);
  console.log(`  cd ${folder} && pnpm typecheck && pnpm lint && pnpm test`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
