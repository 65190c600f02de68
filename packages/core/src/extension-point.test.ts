import { describe, expect, it } from 'vitest';
import { createExtensionPoint, ExtensionPoints, QualifiedRegistry } from './extension-point.ts';

interface Channel {
  id: string;
  label: string;
}

function setUp() {
  const points = new ExtensionPoints();
  const registry = new QualifiedRegistry<Channel>('channels');
  const channelPoint = createExtensionPoint<{ add(channel: Channel): void }>('demo.channels');
  points.provide(channelPoint, 'notification', (caller) => ({
    add: (channel) => void registry.register(caller, channel),
  }));
  return { points, registry, channelPoint };
}

describe('extension points', () => {
  it('qualifies ids with the registering plugin, which cannot register under another name', () => {
    const { points, registry, channelPoint } = setUp();
    points.get(channelPoint, 'notification-smtp').add({ id: 'smtp', label: 'E-mail' });
    expect(registry.list().map((entry) => entry.qualifiedId)).toEqual(['notification-smtp.smtp']);
    expect(registry.get('notification-smtp.smtp')).toMatchObject({
      ownerPluginId: 'notification-smtp',
    });
  });

  it('refuses duplicates and malformed ids', () => {
    const { points, channelPoint } = setUp();
    const api = points.get(channelPoint, 'slack');
    api.add({ id: 'chat', label: 'Slack' });
    expect(() => api.add({ id: 'chat', label: 'again' })).toThrow(
      'slack.chat is already registered',
    );
    expect(() => api.add({ id: 'Bad Id', label: 'x' })).toThrow(/invalid id/);
  });

  it('drives register, init, ready in order and refuses late use', () => {
    const { points, registry, channelPoint } = setUp();
    const api = points.get(channelPoint, 'sms');
    points.advance('init');
    expect(() => points.get(channelPoint, 'sms')).toThrow(/in the init phase/);
    expect(() => points.advance('init')).toThrow(/Cannot move from init to init/);
    points.advance('ready');
    registry.freeze();
    expect(() => api.add({ id: 'late', label: 'x' })).toThrow(/registered after start-up/);
  });

  it('refuses a second provider and an unknown point', () => {
    const { points, channelPoint } = setUp();
    expect(() => points.provide(channelPoint, 'other', () => ({ add() {} }))).toThrow(
      /already provided/,
    );
    expect(() => points.get(createExtensionPoint('nobody.point'), 'x')).toThrow(/not provided/);
  });
});
