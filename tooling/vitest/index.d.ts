import type { UserConfig } from 'vitest/config';
import type { InlineConfig } from 'vitest/node';

export declare function checklineTestConfig(test?: InlineConfig): UserConfig;
