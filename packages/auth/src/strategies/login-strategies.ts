import type { LoginStrategy } from '../schemas.ts';
import type { AuthState } from '../state.ts';
import { ROUTE_PREFIX } from './routes.ts';

/** The registered sign-in strategies as the sign-in page lists them, in registration order. */
export function loginStrategies(state: AuthState): LoginStrategy[] {
  return state.strategies.list().map((strategy) => ({
    id: strategy.id,
    displayName: strategy.displayName,
    signInUrl: strategy.start
      ? `${state.config.baseUrl}${ROUTE_PREFIX}/${strategy.id}/${strategy.start}`
      : null,
  }));
}
