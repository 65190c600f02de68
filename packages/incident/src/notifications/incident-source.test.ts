import { IncidentFactsSchema } from '@checkline/notification-node';
import { describe, expect, it } from 'vitest';
import { incidentFacts, incidentSources } from './incident-source.ts';

const event = {
  incidentId: '00000000-0000-4000-8000-0000000000c3',
  title: 'Card payments fail',
  severity: 'major' as const,
  status: 'identified' as const,
  systemIds: ['00000000-0000-4000-8000-0000000000a1'],
  description: 'Some card payments are declined.',
  update: { message: 'Root cause: expired DB credentials', at: '2030-01-01T10:00:00.000Z' },
};
const systems = [{ id: event.systemIds[0]!, name: 'Ledger DB' }];

describe('the incident sources work', () => {
  it("turn an event into facts with the description and the update's message", () => {
    const facts = incidentFacts('incident.updated', event, systems);
    expect(IncidentFactsSchema.parse(facts)).toEqual(facts);
    expect(facts).toEqual({
      kind: 'incident.updated',
      incident: {
        id: event.incidentId,
        title: 'Card payments fail',
        description: 'Some card payments are declined.',
        status: 'identified',
        severity: 'major',
        latestUpdate: event.update,
      },
      systems,
    });
  });

  it('read an event published before descriptions and updates were carried', () => {
    const { description: _description, update: _update, ...older } = event;
    expect(incidentFacts('incident.created', older, []).incident).toMatchObject({
      description: '',
      latestUpdate: null,
    });
  });

  it('register one source per event, heard by incident subscriptions under the read rule', () => {
    expect(
      incidentSources.map((source) => [source.id, source.event.name, source.subscriptionKind]),
    ).toEqual([
      ['created', 'incident.created', 'incident'],
      ['updated', 'incident.updated', 'incident'],
      ['resolved', 'incident.resolved', 'incident'],
    ]);
    expect(new Set(incidentSources.map((source) => source.readRule))).toEqual(
      new Set(['incident.incident.read']),
    );
  });
});
