import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { systemDeleted } from '@checkline/catalog';
import type { RateLimit, RequestContext } from '@checkline/core';
import { Keyring, definePlugin, memoryRateLimiter, sharedRateLimiter } from '@checkline/core';
import type { EventType } from '@checkline/core/contract';
import { healthStatusChanged } from '@checkline/healthcheck';
import { incidentCreated, incidentResolved, incidentUpdated } from '@checkline/incident';
import {
  maintenanceEnded,
  maintenanceStarted,
  maintenanceWindowChanged,
} from '@checkline/maintenance';
import { statuspageAccess } from './access.ts';
import { statuspageContract } from './contract.ts';
import { createDomainMap, pageHostClaim } from './custom-domains.ts';
import { createPageCache } from './page-cache.ts';
import { buildPublicPage } from './public-page.ts';
import { publicRoutes } from './public-routes.ts';
import { createStatuspageRouter } from './router.ts';
import { detachSystem, findPublishedPage, publishedDomains } from './service.ts';
import type { Subscriptions } from './subscribers/context.ts';
import { mailIncident, mailMaintenance } from './subscribers/notify.ts';
import { subscriptionRoutes } from './subscribers/routes.ts';

export interface StatuspagePluginOptions {
  /** Where visitors reach the web UI (pages at `/status/{slug}`), for feed links. Default http://localhost:3000. */
  publicUrl?: string;
  /** Where the API is reached, for the feed's link to itself. Default: `publicUrl`. */
  apiUrl?: string;
  /** How long a public answer is served at most without an event refreshing it. Default 60 s. */
  cacheMaxAgeMs?: number;
  /** Signs unsubscribe links (the server's keyring); a random key of this process by default. */
  keyring?: Keyring;
  /**
   * Subscription requests allowed per page and per e-mail address (across pages), counted
   * together by every process on a PostgreSQL database; `false` turns one off.
   * Default 100 an hour per page, 5 an hour per address.
   */
  subscribeLimits?: { perPage?: RateLimit | false; perAddress?: RateLimit | false };
  /** How long a confirmation link works. Default 48 hours. */
  confirmLinkMs?: number;
  now?: () => Date;
}

const hourly = (points: number): RateLimit => ({ points, durationSeconds: 3_600 });

/** Events after which every public answer is rebuilt on its next read. */
const changesOfPublicAnswers: readonly EventType<unknown>[] = [
  healthStatusChanged,
  incidentCreated,
  incidentUpdated,
  incidentResolved,
  maintenanceStarted,
  maintenanceEnded,
  maintenanceWindowChanged,
] as const;

/** A status-page plugin; the server mounts one per process (its cache is the process's). */
export function createStatuspagePlugin(options: StatuspagePluginOptions = {}) {
  const now = options.now ?? (() => new Date());
  const publicUrl = (options.publicUrl ?? 'http://localhost:3000').replace(/\/$/, '');
  const apiUrl = (options.apiUrl ?? publicUrl).replace(/\/$/, '');
  let service: (() => RequestContext) | undefined;
  const initialised = () => {
    if (!service) throw new Error('The statuspage plugin has not been initialised');
    return service();
  };
  const limitsWanted = {
    perPage: options.subscribeLimits?.perPage ?? hourly(100),
    perAddress: options.subscribeLimits?.perAddress ?? hourly(5),
  };
  let limits: ReturnType<Subscriptions['limits']> = {};
  const subscriptions: Subscriptions = {
    service: initialised,
    keyring: options.keyring ?? new Keyring(randomBytes(32)),
    apiUrl,
    publicUrl,
    now,
    confirmTtlMs: options.confirmLinkMs ?? 48 * 3_600_000,
    limits: () => limits,
  };
  const cache = createPageCache({
    maxAgeMs: options.cacheMaxAgeMs ?? 60_000,
    async build(slug) {
      const context = initialised();
      const page = await findPublishedPage(context.db, slug);
      return page && buildPublicPage(context, page, now());
    },
  });

  const domains = createDomainMap({
    maxAgeMs: options.cacheMaxAgeMs ?? 60_000,
    load: () => publishedDomains(initialised().db),
  });

  const plugin = definePlugin({
    id: 'statuspage',
    // A page is built from these plugins' procedures and refreshed on their events.
    // Subscribers are mailed through notification's e-mail channel (sendToAddress).
    dependsOn: ['catalog', 'healthcheck', 'incident', 'maintenance', 'notification'],
    description:
      'Public status pages: sections of systems and groups under display names, their status, uptime, incidents and maintenance, readable without signing in.',
    contract: statuspageContract,
    router: createStatuspageRouter(cache, domains),
    accessRules: Object.values(statuspageAccess),
    async claimHost(host) {
      const slug = await domains.slugFor(host);
      return slug === undefined ? undefined : pageHostClaim(slug);
    },
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    routes: [...publicRoutes(cache, { publicUrl, apiUrl }), ...subscriptionRoutes(subscriptions)],
    register(api) {
      for (const event of changesOfPublicAnswers) {
        api.events.subscribe(event, () => cache.invalidate());
      }
      for (const event of [incidentCreated, incidentUpdated, incidentResolved]) {
        api.events.subscribe(event, (payload, { eventId }) =>
          mailIncident(subscriptions, payload, eventId),
        );
      }
      api.events.subscribe(maintenanceWindowChanged, (payload, { eventId }) =>
        mailMaintenance(subscriptions, payload, eventId, 'scheduled'),
      );
      api.events.subscribe(maintenanceStarted, (payload, { eventId }) =>
        mailMaintenance(subscriptions, payload, eventId, 'started'),
      );
      api.events.subscribe(maintenanceEnded, (payload, { eventId }) =>
        mailMaintenance(subscriptions, payload, eventId, 'ended'),
      );
      api.events.subscribe(systemDeleted, async ({ systemId }) => {
        await detachSystem(initialised().db, systemId);
        cache.invalidate();
      });
    },
    init(api) {
      service = () => api.serviceContext();
      const limiter = (limit: RateLimit | false, name: string) =>
        api.databaseKind === 'postgres'
          ? sharedRateLimiter(limit, `statuspage-subscribe-${name}`, api.db)
          : memoryRateLimiter(limit, `statuspage-subscribe-${name}`);
      limits = {
        perPage: limiter(limitsWanted.perPage, 'page'),
        perAddress: limiter(limitsWanted.perAddress, 'address'),
      };
    },
  });
  return { ...plugin, cache, domains };
}

export const statuspagePlugin = createStatuspagePlugin();
