import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { namesOf } from './names.ts';
import { channelTemplate } from './templates/channel.ts';
import { checkTypeTemplate } from './templates/check-type.ts';
import { pluginTemplate } from './templates/plugin.ts';

const templates = {
  plugin: pluginTemplate,
  channel: channelTemplate,
  'check-type': checkTypeTemplate,
};

export type PackageKind = keyof typeof templates;

export const isPackageKind = (kind: string): kind is PackageKind => Object.hasOwn(templates, kind);

/**
 * Writes a new workspace package of `kind` named after `name` into `{workspaceRoot}/packages`,
 * formatted with the workspace's prettier settings; refuses a folder that exists. Answers the
 * package's folder.
 */
export async function generatePackage(
  kind: PackageKind,
  name: string,
  workspaceRoot: string,
): Promise<string> {
  const { folder, files } = templates[kind](namesOf(name));
  const packageDir = join(workspaceRoot, 'packages', folder);
  if (existsSync(packageDir)) throw new Error(`${packageDir} exists already`);
  for (const [path, text] of Object.entries(files)) {
    const file = join(packageDir, path);
    const settings = await resolveConfig(file);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, await format(text, { ...settings, filepath: file }));
  }
  return packageDir;
}
