import { fileURLToPath } from 'node:url';
import type { PluginMigrations } from '../database.ts';

/** The platform's own tables (the event outbox); `DatabaseHandle.migrate` applies them first. */
export const infrastructureMigrations: PluginMigrations = {
  pluginId: 'checkline',
  folder: fileURLToPath(new URL('../../drizzle', import.meta.url)),
};

/** The infrastructure's migrations, then `plugins`' in the order given. */
export function withInfrastructure(plugins: readonly PluginMigrations[]): PluginMigrations[] {
  const clash = plugins.find((plugin) => plugin.pluginId === infrastructureMigrations.pluginId);
  if (clash) throw new Error(`The migration journal "${clash.pluginId}" is the platform's own`);
  return [infrastructureMigrations, ...plugins];
}
