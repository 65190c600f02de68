import type { AlertFacts } from '@checkline/notification-node';
import { describe, expect, it } from 'vitest';
import { webhookPayload, webhookPayloadJsonSchema, WebhookPayloadSchema } from './payload.ts';

const facts: AlertFacts = {
  kind: 'incident.updated',
  incident: {
    id: '00000000-0000-4000-8000-0000000000c3',
    title: 'Card payments fail',
    description: '',
    status: 'identified',
    severity: 'major',
    latestUpdate: { message: 'Root cause: expired DB credentials', at: '2030-01-01T10:00:00.000Z' },
  },
  systems: [],
};
const delivery = { id: 'delivery-7', createdAt: new Date('2030-01-01T10:00:01.000Z') };

describe('the webhook payload works', () => {
  it('carries an alert’s facts beside its text, under a version', () => {
    const payload = webhookPayload(
      {
        type: 'incident.updated',
        title: 'Incident updated: Card payments fail',
        body: '> Root cause\\: expired DB credentials',
        facts,
      },
      delivery,
    );
    expect(payload).toMatchObject({
      version: 1,
      id: 'delivery-7',
      text: '> Root cause: expired DB credentials',
      facts,
    });
    expect(WebhookPayloadSchema.parse(payload)).toEqual(payload);
  });

  it('describes itself as a JSON Schema that requires the version and the facts', () => {
    const schema = webhookPayloadJsonSchema() as {
      required: string[];
      properties: Record<string, unknown>;
      $schema?: string;
    };
    expect(schema.$schema).toBeUndefined();
    expect(schema.required).toEqual(expect.arrayContaining(['version', 'facts', 'id', 'type']));
    expect(schema.properties['version']).toMatchObject({ const: 1 });
  });
});
