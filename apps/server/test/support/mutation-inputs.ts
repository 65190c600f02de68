import type { attachedObjects, TeamWorld } from './team-world.ts';

type Input = Record<string, unknown>;

/** Per procedure of a plugin, a function that makes a valid input for it. */
export type InputMakers = Record<string, () => Promise<Input>>;

/** The system the inputs act on: the one `objects` are attached to, and how to make another. */
export interface MutationSystem {
  id: string;
  another: () => Promise<string>;
}

/**
 * A valid input, on fresh objects made by the admin, for every mutation of the monitoring
 * plugins (catalog, healthcheck, maintenance, incident), each bound to `system`.
 */
export function monitoringMutationInputs(
  world: TeamWorld,
  objects: ReturnType<typeof attachedObjects>,
  system: MutationSystem,
): Record<'catalog' | 'healthcheck' | 'maintenance' | 'incident', InputMakers> {
  return {
    catalog: {
      createSystem: async () => ({ name: `system-${world.unique()}` }),
      updateSystem: async () => ({ id: await system.another(), description: 'changed' }),
      deleteSystem: async () => ({ id: await system.another() }),
      createGroup: async () => ({ name: `group-${world.unique()}` }),
      updateGroup: async () => ({ id: await objects.group(), description: 'changed' }),
      deleteGroup: async () => ({ id: await objects.group() }),
      addSystemToGroup: async () => ({
        groupId: await objects.group(),
        systemId: await system.another(),
      }),
      removeSystemFromGroup: async () => ({ groupId: await objects.group(), systemId: system.id }),
    },
    healthcheck: {
      createHealthCheck: async () => objects.checkInput(),
      updateHealthCheck: async () => ({
        id: await objects.check(),
        name: `renamed-${world.unique()}`,
      }),
      deleteHealthCheck: async () => ({ id: await objects.check() }),
      runHealthCheck: async () => ({ id: await objects.check() }),
      rotateHeartbeatToken: async () => {
        const input = { ...objects.checkInput(), type: 'healthcheck.heartbeat', config: {} };
        const { createHealthCheck } = await world.asAdmin('healthcheck', {
          createHealthCheck: input,
        });
        return { id: (createHealthCheck as { id: string }).id };
      },
      setSystemDependencies: async () => ({
        systemId: await system.another(),
        dependsOn: [system.id],
      }),
    },
    maintenance: {
      scheduleWindow: async () => objects.windowInput(),
      updateWindow: async () => ({ id: await objects.window(), title: 'changed' }),
      deleteWindow: async () => ({ id: await objects.window() }),
    },
    incident: {
      createIncident: async () => objects.incidentInput(),
      updateIncident: async () => ({ id: await objects.incident(), message: 'still on it' }),
      deleteIncident: async () => ({ id: await objects.incident() }),
    },
  };
}
