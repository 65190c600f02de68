import { appError } from '@checkline/core';

/** NOT_FOUND for a procedure a plugin lacks, naming the ones it has (a typo's quickest fix). */
export const unknownProcedure = (pluginId: string, procedure: string, known: readonly string[]) =>
  appError(
    'NOT_FOUND',
    `Unknown procedure ${procedure} of plugin ${pluginId}; its procedures: ${known.join(', ')}`,
  );

/** NOT_FOUND for a plugin that is not mounted, naming the ones that are. */
export const unknownPlugin = (pluginId: string, known: readonly string[]) =>
  appError('NOT_FOUND', `Unknown plugin ${pluginId}; the plugins: ${known.join(', ')}`);
