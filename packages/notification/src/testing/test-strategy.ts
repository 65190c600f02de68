import { z } from 'zod';
import type { NotificationStrategy } from '@checkline/notification-node';
import { versionedSchema } from '@checkline/notification-node';

/** A minimal valid strategy for tests; `overrides` replace its fields. */
export function testStrategy(overrides: Partial<NotificationStrategy> = {}): NotificationStrategy {
  return {
    id: 'test',
    displayName: 'Test channel',
    config: versionedSchema({ version: 1, schema: z.object({}) }),
    contactResolution: { type: 'auth-email' },
    send: () => Promise.resolve({ success: true }),
    ...overrides,
  };
}
