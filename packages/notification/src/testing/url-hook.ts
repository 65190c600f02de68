import { z } from 'zod';
import { versionedSchema } from '@checkline/notification-node';

const urlSchema = z.object({ url: z.string().optional() });

/**
 * The settings of a webhook-like test channel, for `recordingStrategy` or `testStrategy`: a
 * recipient's own `url`, else the administrator's fallback `url` (what its custom resolver
 * answers), and whether it reaches applications.
 */
export function urlHookFields(reachesApplications: boolean) {
  return {
    id: 'hook',
    config: versionedSchema({ version: 1, schema: urlSchema }),
    userConfig: versionedSchema({ version: 1, schema: urlSchema }),
    contactResolution: {
      type: 'custom' as const,
      resolve: ({
        userConfig,
        strategyConfig,
      }: {
        userConfig?: unknown;
        strategyConfig?: unknown;
      }) =>
        Promise.resolve(
          (userConfig as { url?: string } | undefined)?.url ??
            (strategyConfig as { url?: string } | undefined)?.url,
        ),
    },
    reachesApplications,
  };
}
