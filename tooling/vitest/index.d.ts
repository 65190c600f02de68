import type { UserConfig } from 'vitest/config';
import type { InlineConfig } from 'vitest/node';

export declare function testWorkers(perCpu?: number): number;
export declare function checklineTestConfig(test?: InlineConfig): UserConfig;
