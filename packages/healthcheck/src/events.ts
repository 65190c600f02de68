import { defineEvent } from '@checkline/core/contract';
import type { HealthStatusChange } from './schemas.ts';

/** A system's health status changed; published once per change, after it is committed. */
export const healthStatusChanged = defineEvent<HealthStatusChange>('healthcheck.status_changed');
