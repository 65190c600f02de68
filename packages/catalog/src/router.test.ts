import { createPluginHarness, testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { catalogAccess } from './access.ts';
import { catalogContract } from './contract.ts';
import { groupSystems, groups, systems } from './db/schema.ts';
import { catalogPlugin } from './plugin.ts';

let database: DatabaseHandle;
let harness: ReturnType<typeof createPluginHarness>;

const manager = testPrincipal([catalogAccess.read, catalogAccess.manage]);
const reader = testPrincipal([catalogAccess.read]);
const nobody = testPrincipal([]);
const anonymous = testPrincipal([], { kind: 'anonymous', id: null as never });

const as = (principal: ReturnType<typeof testPrincipal>) =>
  harness.client('catalog', catalogContract, principal);

beforeAll(async () => {
  database = await createTestDatabase([
    { pluginId: 'catalog', folder: catalogPlugin.migrationsFolder! },
  ]);
  harness = createPluginHarness([catalogPlugin], database.db);
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(groupSystems);
  await database.db.delete(groups);
  await database.db.delete(systems);
});

describe('systems', () => {
  describe('works', () => {
    it('creates a system with defaults and reads it back', async () => {
      const created = await as(manager).createSystem({ name: 'payments-api' });
      expect(created).toMatchObject({
        name: 'payments-api',
        description: '',
        owner: null,
        metadata: {},
        tags: [],
      });
      expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);
      await expect(as(reader).getSystem({ id: created.id })).resolves.toEqual(created);
    });

    it('lists systems by name and filters by tags and owner', async () => {
      await as(manager).createSystem({ name: 'b-web', tags: ['web', 'prod'], owner: 'team-a' });
      await as(manager).createSystem({ name: 'a-db', tags: ['db', 'prod'], owner: 'team-b' });
      const all = await as(reader).getSystems({});
      expect(all.systems.map((s) => s.name)).toEqual(['a-db', 'b-web']);
      const prodWeb = await as(reader).getSystems({ tags: ['prod', 'web'] });
      expect(prodWeb.systems.map((s) => s.name)).toEqual(['b-web']);
      const teamB = await as(reader).getSystems({ owner: 'team-b' });
      expect(teamB.systems.map((s) => s.name)).toEqual(['a-db']);
      const byId = await as(reader).getSystems({ ids: [all.systems[1]!.id] });
      expect(byId.systems.map((s) => s.name)).toEqual(['b-web']);
    });

    it('updates only the given fields and keeps metadata objects intact', async () => {
      const created = await as(manager).createSystem({
        name: 'queue',
        metadata: { region: 'eu', replicas: 3, nested: { on: true } },
      });
      const updated = await as(manager).updateSystem({ id: created.id, description: 'jobs' });
      expect(updated).toMatchObject({
        name: 'queue',
        description: 'jobs',
        metadata: { region: 'eu', replicas: 3, nested: { on: true } },
      });
      expect(updated.updatedAt >= created.updatedAt).toBe(true);
    });

    it('deletes a system and drops it from its groups', async () => {
      const system = await as(manager).createSystem({ name: 'old' });
      const group = await as(manager).createGroup({ name: 'legacy' });
      await as(manager).addSystemToGroup({ groupId: group.id, systemId: system.id });
      await expect(as(manager).deleteSystem({ id: system.id })).resolves.toEqual({
        id: system.id,
        deleted: true,
      });
      const { groups: listed } = await as(reader).getGroups({});
      expect(listed[0]?.systemIds).toEqual([]);
    });
  });

  describe('rejects bad input', () => {
    it('answers CONFLICT for a taken name on create and on rename', async () => {
      await as(manager).createSystem({ name: 'taken' });
      const other = await as(manager).createSystem({ name: 'other' });
      await expect(as(manager).createSystem({ name: 'taken' })).rejects.toMatchObject({
        code: 'CONFLICT',
        status: 409,
        message: 'A system named "taken" already exists',
      });
      await expect(as(manager).updateSystem({ id: other.id, name: 'taken' })).rejects.toMatchObject(
        { code: 'CONFLICT' },
      );
    });

    it('answers NOT_FOUND for an unknown id', async () => {
      const id = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';
      for (const attempt of [
        () => as(reader).getSystem({ id }),
        () => as(manager).updateSystem({ id, name: 'x' }),
        () => as(manager).deleteSystem({ id }),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
      }
    });

    it('answers BAD_REQUEST for an empty name, a non-uuid id and a non-object metadata', async () => {
      await expect(as(manager).createSystem({ name: '   ' })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
      await expect(as(reader).getSystem({ id: 'not-a-uuid' })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
      await expect(
        as(manager).createSystem({ name: 'x', metadata: [1, 2] as never }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses a caller without catalog.catalog.read', async () => {
      await expect(as(nobody).getSystems({})).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing access: catalog.catalog.read',
      });
    });

    it('refuses a reader that tries to change the catalog', async () => {
      await expect(as(reader).createSystem({ name: 'x' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing access: catalog.catalog.manage',
      });
      const created = await as(manager).createSystem({ name: 'mine' });
      await expect(as(reader).deleteSystem({ id: created.id })).rejects.toMatchObject({
        message: 'Missing access: catalog.catalog.manage',
      });
    });

    it('answers UNAUTHORIZED to anonymous callers', async () => {
      await expect(as(anonymous).getSystems({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    });
  });
});

describe('groups', () => {
  it('creates, renames, fills and empties a group', async () => {
    const group = await as(manager).createGroup({ name: 'core', description: 'the core' });
    const renamed = await as(manager).updateGroup({ id: group.id, name: 'core-services' });
    expect(renamed).toMatchObject({ name: 'core-services', description: 'the core' });
    const a = await as(manager).createSystem({ name: 'a' });
    const b = await as(manager).createSystem({ name: 'b' });
    await as(manager).addSystemToGroup({ groupId: group.id, systemId: a.id });
    const filled = await as(manager).addSystemToGroup({ groupId: group.id, systemId: b.id });
    expect([...filled.systemIds].sort()).toEqual([a.id, b.id].sort());
    expect(await as(reader).getGroup({ id: group.id })).toEqual(filled);
    const ofA = await as(reader).getSystemGroups({ systemId: a.id });
    expect(ofA.groups.map((g) => g.name)).toEqual(['core-services']);
    const again = await as(manager).addSystemToGroup({ groupId: group.id, systemId: a.id });
    expect(again.systemIds).toHaveLength(2);
    const emptied = await as(manager).removeSystemFromGroup({ groupId: group.id, systemId: a.id });
    expect(emptied.systemIds).toEqual([b.id]);
    await as(manager).deleteGroup({ id: group.id });
    expect((await as(reader).getGroups({})).groups).toEqual([]);
  });

  it('answers CONFLICT for a taken group name and NOT_FOUND for unknown groups and systems', async () => {
    const group = await as(manager).createGroup({ name: 'dup' });
    await expect(as(manager).createGroup({ name: 'dup' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const unknown = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';
    await expect(
      as(manager).addSystemToGroup({ groupId: group.id, systemId: unknown }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `System ${unknown} not found` });
    await expect(as(manager).deleteGroup({ id: unknown })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(as(reader).getGroup({ id: unknown })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(as(reader).getSystemGroups({ systemId: unknown })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('refuses group changes to readers', async () => {
    await expect(as(reader).createGroup({ name: 'x' })).rejects.toMatchObject({
      message: 'Missing access: catalog.catalog.manage',
    });
  });
});
