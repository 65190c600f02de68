import { implementPlugin } from '@checkline/core';
import { notificationContract } from './contract.ts';

/** The one implementer of the notification contract that every handler group builds on. */
export const os = implementPlugin(notificationContract);
