import { randomUUID } from 'node:crypto';
import { catalogAccess, catalogContract, catalogPlugin } from '@checkline/catalog';
import { ExtensionPoints, silentLogger } from '@checkline/core';
import { createPluginHarness, testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { incidentAccess } from './access.ts';
import { incidentContract } from './contract.ts';
import { incidents } from './db/schema.ts';
import type { IncidentEvent } from './events.ts';
import { incidentCreated, incidentResolved, incidentUpdated } from './events.ts';
import { createIncidentPlugin } from './plugin.ts';

type Heard = { event: string; payload: IncidentEvent };

let database: DatabaseHandle;
let harness: ReturnType<typeof createPluginHarness>;
const heard: Heard[] = [];

const manager = testPrincipal([incidentAccess.read, incidentAccess.manage]);
const reader = testPrincipal([incidentAccess.read]);
const cataloguer = testPrincipal([catalogAccess.read, catalogAccess.manage]);
const incident = (principal = manager) => harness.client('incident', incidentContract, principal);
const catalog = () => harness.client('catalog', catalogContract, cataloguer);

async function newSystem() {
  return (await catalog().createSystem({ name: `system-${randomUUID()}` })).id;
}

/** What was published since the last call, once every subscriber has run. */
async function published() {
  await harness.runtime.events.settled();
  return heard.splice(0);
}

beforeAll(async () => {
  const plugin = createIncidentPlugin();
  database = await createTestDatabase([
    { pluginId: 'catalog', folder: catalogPlugin.migrationsFolder! },
    { pluginId: 'incident', folder: plugin.migrationsFolder! },
  ]);
  harness = createPluginHarness([catalogPlugin, plugin], database.db);
  const { events } = harness.runtime;
  for (const type of [incidentCreated, incidentUpdated, incidentResolved]) {
    events.subscribe(type, (payload) => {
      heard.push({ event: type.name, payload });
    });
  }
  // The harness does not drive the start-up phases; the server does register, then init.
  const extensionPoints = new ExtensionPoints();
  plugin.register?.({ pluginId: plugin.id, extensionPoints, events });
  await plugin.init?.({
    pluginId: plugin.id,
    db: database.db,
    logger: silentLogger,
    events,
    plugins: harness.runtime.plugins,
    metrics: harness.runtime.metrics,
    serviceContext: () => harness.runtime.serviceContext(plugin.id),
  });
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(incidents);
  await published();
});

describe('incident events', () => {
  describe('works', () => {
    it('publishes incident.created once, with the incident', async () => {
      const system = await newSystem();
      const created = await incident().createIncident({
        title: 'API down',
        severity: 'critical',
        systemIds: [system],
      });
      expect(await published()).toEqual([
        {
          event: 'incident.created',
          payload: {
            incidentId: created.id,
            title: 'API down',
            severity: 'critical',
            status: 'investigating',
            systemIds: [system],
            description: '',
            update: null,
          },
        },
      ]);
    });

    it('publishes one incident.updated per change and incident.resolved instead when resolving', async () => {
      const { id } = await incident().createIncident({ title: 'Latency', severity: 'minor' });
      await published();
      await incident().updateIncident({ id, message: 'Still looking' });
      await incident().updateIncident({ id, severity: 'major', status: 'identified' });
      await incident().updateIncident({ id, status: 'resolved' });
      await incident().updateIncident({ id, status: 'monitoring' });
      const events = await published();
      // The message an update wrote travels with its event; a status change alone writes none.
      expect(events.map((entry) => entry.payload.update?.message ?? null)).toEqual([
        'Still looking',
        null,
        null,
        null,
      ]);
      expect(events.map((entry) => [entry.event, entry.payload.status])).toEqual([
        ['incident.updated', 'investigating'],
        ['incident.updated', 'identified'],
        ['incident.resolved', 'resolved'],
        ['incident.updated', 'monitoring'],
      ]);
    });

    it('publishes nothing for an update that changes nothing', async () => {
      const system = await newSystem();
      const created = await incident().createIncident({
        title: 'Same',
        severity: 'minor',
        systemIds: [system],
      });
      await published();
      const same = await incident().updateIncident({
        id: created.id,
        title: 'Same',
        severity: 'minor',
        status: 'investigating',
        systemIds: [system],
      });
      expect(same).toEqual(created);
      expect(await published()).toEqual([]);
    });
  });

  describe('rejects bad input', () => {
    it('publishes nothing when a change is refused', async () => {
      const { id } = await incident().createIncident({ title: 'Quiet', severity: 'minor' });
      await published();
      await expect(
        incident().updateIncident({
          id,
          status: 'resolved',
          systemIds: ['5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11'],
        }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        incident().createIncident({ title: '', severity: 'minor' }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      expect(await published()).toEqual([]);
    });
  });

  describe('refuses the wrong caller', () => {
    it('publishes nothing for a caller without incident.incident.manage', async () => {
      await expect(
        incident(reader).createIncident({ title: 'x', severity: 'minor' }),
      ).rejects.toMatchObject({ message: 'Missing access: incident.incident.manage' });
      expect(await published()).toEqual([]);
    });
  });
});

describe('deleting a catalog system', () => {
  it('detaches the system from every incident and keeps the others', async () => {
    const [gone, kept] = [await newSystem(), await newSystem()];
    const shared = await incident().createIncident({
      title: 'shared',
      severity: 'major',
      systemIds: [gone, kept],
    });
    const only = await incident().createIncident({
      title: 'only',
      severity: 'minor',
      systemIds: [gone],
    });
    await catalog().deleteSystem({ id: gone });
    await harness.runtime.events.settled();
    const { incidents: open } = await incident().getIncidents({});
    expect(open.map((each) => [each.id, each.systemIds])).toEqual([
      [only.id, []],
      [shared.id, [kept]],
    ]);
    await expect(incident().getIncidents({ systemId: gone })).resolves.toEqual({
      incidents: [],
      nextCursor: null,
    });
  });
});
