import type { AnyPlugin, PluginRegisterApi } from '@checkline/core';
import { definePlugin } from '@checkline/core';
import { startPluginHarness } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationPlugin } from './plugin.ts';
import { NotificationStrategyRegistry } from './strategies/registry.ts';
import type {
  NotificationStrategy,
  NotificationStrategyRegistrar,
} from '@checkline/notification-node';
import { notificationStrategyExtensionPoint } from '@checkline/notification-node';
import { testStrategy } from './testing/test-strategy.ts';

let database: DatabaseHandle;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const stop of stops) await stop();
  await database.close();
});

/** A channel plugin; `during` decides in which phase it calls the registrar it got. */
function channelPlugin(
  id: string,
  strategies: NotificationStrategy[],
  during: (register: () => void, phase: 'register' | 'init') => void = (register, phase) => {
    if (phase === 'register') register();
  },
) {
  let registrar: NotificationStrategyRegistrar | undefined;
  const registerAll = () => strategies.forEach((strategy) => registrar!.register(strategy));
  return definePlugin({
    id,
    dependsOn: ['notification'],
    description: `Test channel ${id}`,
    contract: {},
    router: {},
    accessRules: [],
    register({ pluginId, extensionPoints }: PluginRegisterApi) {
      registrar = extensionPoints.get(notificationStrategyExtensionPoint, pluginId);
      during(registerAll, 'register');
    },
    init() {
      during(registerAll, 'init');
    },
  });
}

async function start(...channels: AnyPlugin[]) {
  const strategies = new NotificationStrategyRegistry();
  const booted = await startPluginHarness(
    [createNotificationPlugin({ strategies }), ...channels],
    database.db,
    { absentDependencies: ['auth'] },
  );
  stops.push(booted.stop);
  return strategies;
}

describe('notification strategy extension point at start-up', () => {
  it("registers a test plugin's strategies under its own id, with their use rules", async () => {
    const strategies = await start(
      channelPlugin('test-channel', [testStrategy({ id: 'pager' }), testStrategy({ id: 'echo' })]),
      channelPlugin('other-channel', [testStrategy({ id: 'pager' })]),
    );
    expect(strategies.list().map((entry) => entry.qualifiedId)).toEqual([
      'test-channel.pager',
      'test-channel.echo',
      'other-channel.pager',
    ]);
    expect(strategies.accessRules().map((rule) => rule.id)).toEqual([
      'test-channel.strategy.pager.use',
      'test-channel.strategy.echo.use',
      'other-channel.strategy.pager.use',
    ]);
  });

  it('fails start-up on a duplicate, naming both owners', async () => {
    await expect(
      start(
        channelPlugin('test-channel', [
          testStrategy({ id: 'pager' }),
          testStrategy({ id: 'pager' }),
        ]),
      ),
    ).rejects.toThrow(
      'notification strategy test-channel.pager is registered twice: first by plugin test-channel, again by plugin test-channel',
    );
  });

  it('fails start-up when a strategy is registered after the register phase', async () => {
    const lateInInit = channelPlugin('late-channel', [testStrategy()], (register, phase) => {
      if (phase === 'init') register();
    });
    await expect(start(lateInInit)).rejects.toThrow(
      'notification strategy late-channel.test registered after the register phase',
    );
  });

  it('throws on a registration once start-up is done, and keeps the registry unchanged', async () => {
    let registerLater = () => {};
    const keeper = channelPlugin('keeper', [testStrategy({ id: 'late' })], (register, phase) => {
      if (phase === 'register') registerLater = register;
    });
    const strategies = await start(keeper);
    expect(registerLater).toThrow(
      'notification strategy keeper.late registered after the register phase',
    );
    expect(strategies.list()).toEqual([]);
    expect(() => strategies.register('keeper', testStrategy({ id: 'direct' }))).toThrow(
      'keeper.direct registered after start-up',
    );
  });

  it('starts a channel plugin listed before the notification plugin after it', async () => {
    const strategies = new NotificationStrategyRegistry();
    const early = channelPlugin('early-channel', [testStrategy()]);
    const booted = await startPluginHarness(
      [early, createNotificationPlugin({ strategies })],
      database.db,
      { absentDependencies: ['auth'] },
    );
    stops.push(booted.stop);
    expect(strategies.list().map((strategy) => strategy.qualifiedId)).toEqual([
      'early-channel.test',
    ]);
  });

  it('refuses to start a channel plugin without the notification plugin, naming it', async () => {
    await expect(
      startPluginHarness([channelPlugin('lonely-channel', [testStrategy()])], database.db),
    ).rejects.toThrow('Plugin lonely-channel depends on notification, which is not mounted');
  });
});
