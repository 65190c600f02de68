import type { Me } from '../api/access.ts';

/** A screen in the app's navigation, shown only to whom `mayOpen` allows. */
export interface NavEntry {
  label: string;
  to: string;
  mayOpen: (me: Me) => boolean;
}
