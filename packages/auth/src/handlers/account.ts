import { audit } from '../audit.ts';
import { describeCaller } from '../me.ts';
import { isRegistrationAllowed, setRegistrationAllowed } from '../registration.ts';
import { os } from './implementer.ts';

export const accountHandlers = () => ({
  getMe: os.getMe.handler(({ context }) => describeCaller(context.db, context.principal)),
  getRegistrationStatus: os.getRegistrationStatus.handler(async ({ context }) => ({
    allowRegistration: await isRegistrationAllowed(context.db),
  })),
  updateRegistrationStatus: os.updateRegistrationStatus.handler(async ({ context, input }) => {
    const { allowRegistration } = input;
    await setRegistrationAllowed(context.db, allowRegistration);
    const target = { type: 'setting', id: 'allow_registration' };
    await audit(context, 'registration.changed', target, { allowRegistration });
    return { allowRegistration };
  }),
});
