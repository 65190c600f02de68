import { fileURLToPath } from 'node:url';
import { accessRulesExtensionPoint } from '@checkline/auth';
import { definePlugin } from '@checkline/core';
import { notificationAccess } from './access.ts';
import { notificationContract } from './contract.ts';
import { createDeliveryWorker } from './delivery/worker.ts';
import { startInbox } from './inbox/background.ts';
import { unsubscribeRoutes } from './preferences/unsubscribe.ts';
import { emailTemplate } from './render/email-template.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { createNotificationRouter } from './router.ts';
import { subscribeToMonitoringEvents } from './subscriptions/subscribers.ts';
import type { NotificationOptions } from './state.ts';
import { NotificationState } from './state.ts';
import { strategyUseRule } from './strategies/registry.ts';
import type { NotificationStrategy } from './strategies/strategy.ts';
import { notificationStrategyExtensionPoint } from './strategies/strategy.ts';

export const NOTIFICATION_PLUGIN_ID = 'notification';

/**
 * The notification plugin: the strategy extension point, strategy settings, user channels, the
 * in-app inbox, the delivery queue and subscriptions. Channel plugins mount after it and
 * register their strategies in their register phase; the registry is frozen once start-up is done.
 */
export function createNotificationPlugin(options: NotificationOptions = {}) {
  const state = new NotificationState(options);
  const { strategies } = state;
  let inbox: Awaited<ReturnType<typeof startInbox>> | undefined;
  const plugin = definePlugin({
    id: NOTIFICATION_PLUGIN_ID,
    description:
      'Notifications: the in-app inbox, the channels (strategies) that deliver them outside, user preferences, subscriptions and the delivery log.',
    contract: notificationContract,
    router: createNotificationRouter(state),
    accessRules: Object.values(notificationAccess),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    // Unsubscribe links, and account linking for every strategy with `oauth`.
    routes: [...unsubscribeRoutes(state), ...oauthRoutes(state)],
    register({ pluginId, extensionPoints, events }) {
      // Monitoring events become notifications for their subscribers (the service context exists
      // from init on, before any event is dispatched).
      subscribeToMonitoringEvents(events, state, () => state.serviceContext());
      extensionPoints.provide(notificationStrategyExtensionPoint, pluginId, (caller) => ({
        register(strategy) {
          if (extensionPoints.phase !== 'register') {
            throw new Error(
              `notification strategy ${caller}.${strategy.id} registered after the register phase`,
            );
          }
          // Stored untyped: only the strategy itself reads its configs with their own types.
          strategies.register(caller, strategy as unknown as NotificationStrategy);
          // The `.use` rule belongs to the registering plugin, so auth hears it under that name.
          if (extensionPoints.isProvided(accessRulesExtensionPoint)) {
            extensionPoints
              .get(accessRulesExtensionPoint, caller)
              .register([strategyUseRule(caller, strategy.id)]);
          }
        },
      }));
    },
    init({ db, logger, serviceContext }) {
      state.attach(db, logger, serviceContext);
      // The e-mail layout is inlined now, at start-up, not while the first message waits.
      emailTemplate();
    },
    async ready({ listen }) {
      strategies.freeze();
      inbox = await startInbox(state, listen);
      state.deliveryWorker = createDeliveryWorker(state);
      if (state.deliverySettings.autoStart) state.deliveryWorker.start();
    },
    drain() {
      inbox?.endStreams();
    },
    async stop() {
      await state.deliveryWorker?.stop();
      state.deliveryWorker = undefined;
      await inbox?.stop();
      inbox = undefined;
    },
  });
  return Object.assign(plugin, {
    /** What handlers and workers share (other concepts' services take it, e.g. enqueueDeliveries). */
    state,
    /** This process's delivery worker; there is one from `ready` until `stop`. */
    deliveryWorker() {
      if (!state.deliveryWorker) {
        throw new Error('The notification delivery worker runs only between ready and stop');
      }
      return state.deliveryWorker;
    },
  });
}
