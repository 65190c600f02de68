import { catalogPlugin } from '@checkline/catalog';
import type { AnyPlugin } from '@checkline/core';

/** Every plugin the server mounts, in start-up and migration order. */
export const plugins: readonly AnyPlugin[] = [catalogPlugin as unknown as AnyPlugin];
