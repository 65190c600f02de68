import { defineEvent } from '@checkline/core/contract';

/** A system was deleted; plugins holding rows about it clean them up. */
export const systemDeleted = defineEvent<{ systemId: string }>('catalog.system_deleted');
