import type { PublicStatus } from './fetch-public-page.ts';

/** The colour and words of each status; the words are always shown, never colour alone. */
export const statusLook: Record<PublicStatus, { color: string; word: string; summary: string }> = {
  operational: { color: 'green', word: 'Operational', summary: 'All systems operational' },
  degraded: { color: 'yellow', word: 'Degraded', summary: 'Some systems are degraded' },
  outage: { color: 'red', word: 'Outage', summary: 'Some systems are down' },
  maintenance: { color: 'blue', word: 'Maintenance', summary: 'Maintenance in progress' },
  unknown: { color: 'gray', word: 'Unknown', summary: 'Status unknown' },
};
