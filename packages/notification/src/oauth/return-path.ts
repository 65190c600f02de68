/** Where the frontend shows a user's channels; the default return after linking. */
export const DEFAULT_RETURN_PATH = '/settings/notifications';

/** `{frontendUrl}{path}` with `linked=<strategyId>` added to its query. */
export function linkedUrl(frontendUrl: string, path: string, strategyId: string): string {
  const target = new URL(`${frontendUrl}${path}`);
  target.searchParams.set('linked', strategyId);
  return target.toString();
}
