import { audit } from '../audit.ts';
import { describeCaller } from '../me.ts';
import { changeOwnPassword } from '../own-password.ts';
import { isRegistrationAllowed, setRegistrationAllowed } from '../registration.ts';
import type { AuthState } from '../state.ts';
import { loginStrategies } from '../strategies/login-strategies.ts';
import { os } from './implementer.ts';

export const accountHandlers = (state: AuthState) => ({
  getMe: os.getMe.handler(({ context }) => describeCaller(context.db, context.principal)),
  changeMyPassword: os.changeMyPassword.handler(async ({ context, input }) => {
    const { principal } = context;
    const userId = principal.id!;
    const { endedSessions } = await changeOwnPassword(
      context.db,
      state.limits,
      userId,
      input,
      state.authenticator.sessionOf(principal),
    );
    await audit(context, 'user.password_changed', { type: 'user', id: userId }, { endedSessions });
    await state.invalidate(context, { kind: 'user', id: userId });
    return { changed: true as const };
  }),
  getRegistrationStatus: os.getRegistrationStatus.handler(async ({ context }) => ({
    allowRegistration: await isRegistrationAllowed(context.db),
  })),
  getLoginStrategies: os.getLoginStrategies.handler(() => ({
    strategies: loginStrategies(state),
  })),
  updateRegistrationStatus: os.updateRegistrationStatus.handler(async ({ context, input }) => {
    const { allowRegistration } = input;
    await setRegistrationAllowed(context.db, allowRegistration);
    const target = { type: 'setting', id: 'allow_registration' };
    await audit(context, 'registration.changed', target, { allowRegistration });
    return { allowRegistration };
  }),
});
