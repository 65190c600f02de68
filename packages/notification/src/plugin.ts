import { fileURLToPath } from 'node:url';
import { accessRulesExtensionPoint, principalDeleted, teamDeleted } from '@checkline/auth';
import { definePlugin } from '@checkline/core';
import { notificationAccess } from './access.ts';
import { notificationContract } from './contract.ts';
import { createDeliveryWorker } from './delivery/worker.ts';
import { readQueueOnScrape } from './delivery/queue-metrics.ts';
import { startInbox } from './inbox/background.ts';
import { unsubscribeRoutes } from './preferences/unsubscribe.ts';
import { emailTemplate } from '@checkline/notification-node';
import { oauthRoutes } from './oauth/routes.ts';
import { acknowledgementRoutes } from './reminders/ack-routes.ts';
import { createReminderWorker } from './reminders/worker.ts';
import { createNotificationRouter } from './router.ts';
import { forgetSubscriber } from './subscriptions/service.ts';
import { subscribeToSource } from './subscriptions/subscribers.ts';
import type { NotificationOptions } from './state.ts';
import { NotificationState } from './state.ts';
import { strategyUseRule } from './strategies/registry.ts';
import {
  notificationSourceExtensionPoint,
  notificationStrategyExtensionPoint,
} from '@checkline/notification-node';

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
  let reminders: ReturnType<typeof createReminderWorker> | undefined;
  const plugin = definePlugin({
    id: NOTIFICATION_PLUGIN_ID,
    // Auth: recipients' profiles and the strategies' use rules. Monitoring plugins are not
    // dependencies: they register their events as sources here, so they are mounted after it.
    dependsOn: ['auth'],
    description:
      'Notifications: the in-app inbox, the channels (strategies) that deliver them outside, user preferences, subscriptions and the delivery log.',
    contract: notificationContract,
    router: createNotificationRouter(state),
    accessRules: Object.values(notificationAccess),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    // Unsubscribe links, and account linking for every strategy with `oauth`.
    routes: [...unsubscribeRoutes(state), ...oauthRoutes(state), ...acknowledgementRoutes(state)],
    register({ pluginId, extensionPoints, events }) {
      events.subscribe(principalDeleted, async (subscriber, { db }) => {
        await forgetSubscriber(db, subscriber);
      });
      events.subscribe(teamDeleted, async ({ id }, { db }) => {
        await forgetSubscriber(db, { kind: 'team', id });
      });
      // Monitoring plugins mounted after this one register their events as sources; each event
      // becomes notifications for its subscribers (the service context exists from init on,
      // before any event is dispatched).
      extensionPoints.provide(notificationSourceExtensionPoint, pluginId, (caller) => ({
        register(source) {
          if (extensionPoints.phase !== 'register') {
            throw new Error(
              `notification source ${caller}.${source.id} registered after the register phase`,
            );
          }
          state.sources.register(caller, source);
          subscribeToSource(events, state, () => state.serviceContext(), source);
        },
      }));
      extensionPoints.provide(notificationStrategyExtensionPoint, pluginId, (caller) => ({
        register(strategy) {
          if (extensionPoints.phase !== 'register') {
            throw new Error(
              `notification strategy ${caller}.${strategy.id} registered after the register phase`,
            );
          }
          // Stored untyped: only the strategy itself reads its configs with their own types.
          strategies.register(caller, strategy);
          // The `.use` rule belongs to the registering plugin, so auth hears it under that name.
          if (extensionPoints.isProvided(accessRulesExtensionPoint)) {
            extensionPoints
              .get(accessRulesExtensionPoint, caller)
              .register([strategyUseRule(caller, strategy.id)]);
          }
        },
      }));
    },
    init({ db, logger, serviceContext, databaseKind, metrics }) {
      state.attach(db, logger, serviceContext, databaseKind);
      state.metrics = metrics;
      readQueueOnScrape(metrics, db, strategies);
      // The e-mail layout is inlined now, at start-up, not while the first message waits.
      emailTemplate();
    },
    async ready({ listen }) {
      strategies.freeze();
      state.sources.freeze();
      inbox = await startInbox(state, listen);
      state.deliveryWorker = createDeliveryWorker(state);
      if (state.deliverySettings.autoStart) state.deliveryWorker.start();
      reminders = createReminderWorker(state, state.reminderSettings);
      if (state.reminderSettings.autoStart) reminders.start();
    },
    drain() {
      // Sends in flight finish and are recorded while requests drain; none new is started, so
      // none is cut off by the process's exit and repeated after its lease.
      state.deliveryWorker?.stopClaiming();
      inbox?.endStreams();
    },
    async stop() {
      await reminders?.stop();
      reminders = undefined;
      await state.deliveryWorker?.stop();
      state.deliveryWorker = undefined;
      await inbox?.stop();
      inbox = undefined;
    },
  });
  return Object.assign(plugin, {
    /** What handlers and workers share (other concepts' services take it, e.g. enqueueDeliveries). */
    state,
    /** A round of this process's reminder worker now (tests), joining one in flight. */
    runReminders() {
      if (!reminders) throw new Error('The reminder worker runs only between ready and stop');
      return reminders.runNow();
    },
    /** This process's delivery worker; there is one from `ready` until `stop`. */
    deliveryWorker() {
      if (!state.deliveryWorker) {
        throw new Error('The notification delivery worker runs only between ready and stop');
      }
      return state.deliveryWorker;
    },
  });
}
