import { implementPlugin } from '@checkline/core';
import { notificationContract } from './contract.ts';

/** The one implementer of the notification contract that every handler group builds on. */
export const os = implementPlugin(notificationContract);

/** Placeholder while a handler group is being built; removed before anything is called done. */
export const notBuilt = () => {
  throw new Error('not built yet');
};
