import { createHash } from 'node:crypto';
import { catalogContract, systemResource } from '@checkline/catalog/contract';
import type { RequestContext } from '@checkline/core';
import { anonymousPrincipal, pluginClient, unreachableResources } from '@checkline/core';
import { healthcheckContract } from '@checkline/healthcheck/contract';
import type { Incident } from '@checkline/incident';
import { incidentContract } from '@checkline/incident/contract';
import { maintenanceContract } from '@checkline/maintenance/contract';
import { listedGroupIds, listedSystemIds } from './page-items.ts';
import type {
  PublicIncident,
  PublicMaintenance,
  PublicPage,
  PublicStatus,
} from './public-schemas.ts';
import { publicStatusOf, worstStatus } from './public-status.ts';
import type { Page } from './schemas.ts';

const DAYS = 90;
const RECENT_INCIDENT_MS = 30 * 86_400_000;
/** The most incidents and windows a page reads; older ones fall off its history. */
const READ_LIMIT = 200;

type Day = { date: string; uptimePercent: number | null };

/** A reference to an object of another plugin that says nothing of its id. */
const refOf = (page: Page, kind: string, id: string) =>
  createHash('sha256').update(`${page.id}:${kind}:${id}`).digest('base64url').slice(0, 16);

/** Days of several systems taken together: the mean of those with a figure. */
function combinedDays(series: readonly Day[][]): Day[] {
  const first = series[0];
  if (!first) return [];
  return first.map((day, index) => {
    const figures = series
      .map((days) => days[index]?.uptimePercent)
      .filter((value): value is number => value !== null && value !== undefined);
    return {
      date: day.date,
      uptimePercent:
        figures.length === 0
          ? null
          : figures.reduce((sum, value) => sum + value, 0) / figures.length,
    };
  });
}

const compactUptime = (days: readonly Day[]) => ({
  firstDay: days[0]?.date ?? null,
  days: days.map((day) =>
    day.uptimePercent === null ? null : Math.round(day.uptimePercent * 100) / 100,
  ),
});

/** Each listed group's members that may be shown: team-only members stay off the page. */
async function groupMembers(
  context: RequestContext,
  groupIds: readonly string[],
  teamOnly: ReadonlySet<string>,
): Promise<Map<string, string[]>> {
  const catalog = pluginClient(context, catalogContract);
  const members = new Map<string, string[]>();
  for (const id of groupIds) {
    const group = await catalog.getGroup({ id }).catch(() => undefined);
    if (group)
      members.set(
        id,
        group.systemIds.filter((systemId) => !teamOnly.has(systemId)),
      );
  }
  return members;
}

/**
 * The systems a page shows: those it lists and the members of the groups it lists, team-only
 * members left out; with each listed group's shown members.
 */
export async function shownSystems(context: RequestContext, page: Page) {
  const anonymous = { ...context, principal: anonymousPrincipal() };
  const teamOnly = await unreachableResources(anonymous, systemResource, 'read');
  const members = await groupMembers(context, listedGroupIds(page.sections), teamOnly);
  const shown = new Set([...listedSystemIds(page.sections), ...[...members.values()].flat()]);
  return { members, shown };
}

function toPublicIncident(page: Page, incident: Incident, timeline: PublicIncident['updates']) {
  return {
    ref: refOf(page, 'incident', incident.id),
    title: incident.title,
    severity: incident.severity,
    status: incident.status,
    startedAt: incident.createdAt,
    resolvedAt: incident.resolvedAt,
    updates: timeline,
  } satisfies PublicIncident;
}

async function publicIncidents(
  context: RequestContext,
  page: Page,
  shown: ReadonlySet<string>,
  now: Date,
) {
  const incidents = pluginClient(context, incidentContract);
  const { incidents: listed } = await incidents.listIncidents({
    includeResolved: true,
    limit: READ_LIMIT,
  });
  const relevant = listed.filter(
    (incident) =>
      incident.systemIds.some((id) => shown.has(id)) &&
      (incident.resolvedAt === null ||
        now.getTime() - Date.parse(incident.resolvedAt) <= RECENT_INCIDENT_MS),
  );
  const answered: PublicIncident[] = [];
  for (const incident of relevant) {
    const { timeline } = await incidents.getIncident({ id: incident.id });
    answered.push(
      toPublicIncident(
        page,
        incident,
        timeline.map((entry) => ({
          status: entry.status,
          message: entry.message,
          at: entry.createdAt,
        })),
      ),
    );
  }
  return {
    active: answered.filter((incident) => incident.resolvedAt === null),
    recent: answered.filter((incident) => incident.resolvedAt !== null),
  };
}

async function publicMaintenance(
  context: RequestContext,
  page: Page,
  shown: ReadonlySet<string>,
  now: Date,
): Promise<PublicMaintenance[]> {
  const { windows } = await pluginClient(context, maintenanceContract).getWindows({
    limit: READ_LIMIT,
  });
  return windows
    .filter((window) => window.systemIds.some((id) => shown.has(id)))
    .sort((a, b) => Date.parse(a.startAt) - Date.parse(b.startAt))
    .map((window) => ({
      ref: refOf(page, 'maintenance', window.id),
      title: window.title,
      description: window.description,
      startAt: window.startAt,
      endAt: window.endAt,
      active: Date.parse(window.startAt) <= now.getTime(),
    }));
}

/**
 * The answer visitors get for `page`, read through the other plugins' contracts as the service
 * principal. Only what the page publishes leaves here: its display names, statuses and figures,
 * incidents and windows of the systems it shows, under references instead of ids.
 */
export async function buildPublicPage(
  context: RequestContext,
  page: Page,
  now: Date,
): Promise<PublicPage> {
  const { members, shown } = await shownSystems(context, page);
  const systemIds = [...shown];
  const healthcheck = pluginClient(context, healthcheckContract);
  const [statuses, uptime] =
    systemIds.length === 0
      ? [{ statuses: [] }, { systems: [] }]
      : await Promise.all([
          healthcheck.getBulkSystemHealthStatus({ systemIds }),
          healthcheck.getDailyUptime({ systemIds, days: DAYS }),
        ]);
  const statusOf = new Map(statuses.statuses.map((entry) => [entry.systemId, entry.status]));
  const daysOf = new Map(uptime.systems.map((entry) => [entry.systemId, entry.days]));

  const sections = page.sections.map((section) => ({
    title: section.title,
    items: section.items.flatMap((item) => {
      const ids = item.kind === 'system' ? [item.systemId] : members.get(item.groupId);
      if (!ids) return [];
      const itemStatuses: PublicStatus[] = ids.map((id) => publicStatusOf(statusOf.get(id)));
      const series = ids.map((id) => daysOf.get(id) ?? []).filter((days) => days.length > 0);
      return [
        {
          name: item.displayName,
          kind: item.kind,
          status: worstStatus(itemStatuses),
          uptime: compactUptime(combinedDays(series)),
        },
      ];
    }),
  }));
  const [incidents, maintenance] = await Promise.all([
    publicIncidents(context, page, shown, now),
    publicMaintenance(context, page, shown, now),
  ]);
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    logoUrl: page.logoUrl,
    brandColor: page.brandColor,
    status: worstStatus(sections.flatMap((section) => section.items.map((item) => item.status))),
    sections,
    activeIncidents: incidents.active,
    recentIncidents: incidents.recent,
    maintenance,
    generatedAt: now.toISOString(),
  };
}
