import type { ProcedureMeta } from '@checkline/core/contract';
import { catalogContract } from '@checkline/catalog/contract';
import { healthcheckContract } from '@checkline/healthcheck/contract';
import { incidentContract } from '@checkline/incident/contract';
import { maintenanceContract } from '@checkline/maintenance/contract';
import type { AnyContractProcedure } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attachedObjects,
  seedTeamWorld,
  startLoopbackTarget,
  withDeadline,
  type TeamWorld,
} from './support/team-world.ts';
import { monitoringMutationInputs } from './support/mutation-inputs.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * Issue 9.1: inside a keyed batch every query (of the plugins and of the access checks) runs on
 * the batch's transaction. A query on the root database beside it waits forever on PGlite's one
 * connection, and holds a second pool connection per call on PostgreSQL: here the pool has two,
 * and team grants are never cached, so every check reads them.
 */
let server: TestServer;
let world: TeamWorld;
let target: Awaited<ReturnType<typeof startLoopbackTarget>>;
let hidden: string;
let objects: ReturnType<typeof attachedObjects>;
let hiddenGroup: string;
let hiddenIncident: string;

const DEADLINE_MS = 15_000;
const contracts = {
  catalog: catalogContract,
  healthcheck: healthcheckContract,
  maintenance: maintenanceContract,
  incident: incidentContract,
} as const;
type PluginId = keyof typeof contracts;
type Input = Record<string, unknown>;

const metaOf = (procedure: AnyContractProcedure) => procedure['~orpc'].meta as ProcedureMeta;

/** A valid input for every mutation, on fresh objects bound to the team-only system. */
let mutationInputs: ReturnType<typeof monitoringMutationInputs>;

/** Inputs of the filtered reads that `{}` does not satisfy. */
const readInputs: Record<string, () => Input> = {
  getSystemGroups: () => ({ systemId: hidden }),
  getBulkSystemHealthStatus: () => ({ systemIds: [hidden] }),
  getBulkActiveWindows: () => ({ systemIds: [hidden] }),
  getDailyUptime: () => ({ systemIds: [hidden] }),
  getGroup: () => ({ id: hiddenGroup }),
  getIncident: () => ({ id: hiddenIncident }),
};

/** Reads whose answers are filtered by team access: declared in contract metadata. */
function filteredReads(pluginId: PluginId): string[] {
  return Object.entries(contracts[pluginId])
    .filter(([, procedure]) => {
      const meta = metaOf(procedure);
      return meta.kind === 'query' && (meta.resourceList ?? meta.attachedList) !== undefined;
    })
    .map(([name]) => name);
}

function mutations(pluginId: PluginId): string[] {
  return Object.entries(contracts[pluginId])
    .filter(([, procedure]) => metaOf(procedure).kind === 'mutation')
    .map(([name]) => name);
}

interface Batch {
  pluginId: PluginId;
  body: Record<string, Input>;
}

/** Every mutation with every filtered read of its plugin, in both orders. */
async function everyBatch(): Promise<Batch[]> {
  const batches: Batch[] = [];
  for (const pluginId of Object.keys(contracts) as PluginId[]) {
    for (const mutation of mutations(pluginId)) {
      const makeInput = mutationInputs[pluginId][mutation];
      if (!makeInput) throw new Error(`No batch input for ${pluginId}.${mutation}`);
      for (const read of filteredReads(pluginId)) {
        const readInput = readInputs[read]?.() ?? {};
        batches.push({ pluginId, body: { [mutation]: await makeInput(), [read]: readInput } });
        batches.push({ pluginId, body: { [read]: readInput, [mutation]: await makeInput() } });
      }
    }
  }
  return batches;
}

const describeBatch = ({ pluginId, body }: Batch) =>
  `${pluginId}: ${Object.keys(body).join(' + ')}`;

async function send(batch: Batch) {
  const answer = await withDeadline(
    world.call('holder', batch.pluginId, batch.body),
    DEADLINE_MS,
    describeBatch(batch),
  );
  return { batch: describeBatch(batch), status: answer.status, body: answer.body };
}

beforeAll(async () => {
  target = await startLoopbackTarget();
  server = await createTestServer({ poolSize: 2, auth: { cache: { grantsTtlSeconds: 0 } } });
  world = await seedTeamWorld(server);
  hidden = await world.hiddenSystem();
  objects = attachedObjects(world, hidden, target.url);
  hiddenGroup = await objects.group();
  hiddenIncident = await objects.incident();
  mutationInputs = monitoringMutationInputs(world, objects, {
    id: hidden,
    another: world.hiddenSystem,
  });
});
afterAll(async () => {
  await server.close();
  await target.close();
});

describe('a keyed batch of a mutation and a filtered read, as a team member', () => {
  it('has a batch input for every mutation and finds filtered reads in every plugin', () => {
    for (const pluginId of Object.keys(contracts) as PluginId[]) {
      expect(Object.keys(mutationInputs[pluginId]).sort()).toEqual(mutations(pluginId).sort());
      expect(filteredReads(pluginId), pluginId).not.toEqual([]);
    }
  });

  it('answers every combination, one after another, within its deadline', async () => {
    const batches = await everyBatch();
    const answers = [];
    for (const batch of batches) answers.push(await send(batch));
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    const ready = await withDeadline(server.request('/readyz'), DEADLINE_MS, '/readyz');
    expect(ready.status).toBe(200);
    // Hundreds of batches one after another (each event also reaches status-page subscribers):
    // what is asserted is each batch's deadline, not the walk's total time.
  }, 120_000);

  it('answers twenty of them sent at once, each within its deadline', async () => {
    // Spread over every plugin; a plugin with few combinations is drawn again, on fresh objects.
    const batches: Batch[] = [];
    for (let round = 0; round < 20 && batches.length < 20; round++) {
      const all = await everyBatch();
      const step = Math.max(1, Math.floor(all.length / 20));
      batches.push(...all.filter((_, index) => index % step === 0).slice(0, 20 - batches.length));
    }
    expect(batches).toHaveLength(20);
    const answers = await Promise.all(batches.map(send));
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
  });
});
