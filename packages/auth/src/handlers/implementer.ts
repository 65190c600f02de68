import { implementPlugin } from '@checkline/core';
import { authContract } from '../contract.ts';

/** The one implementer of the auth contract that every handler group builds on. */
export const os = implementPlugin(authContract);
