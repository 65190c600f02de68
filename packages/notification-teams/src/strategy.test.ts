import { createEgress } from '@checkline/net';
import { secretFieldPaths } from '@checkline/notification-node';
import type { FakeService } from '@checkline/notification-node/testing';
import {
  jsonBody,
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAMS_BODY_LIMIT } from './adaptive-card.ts';
import { createTeamsStrategy } from './strategy.ts';

const strategy = createTeamsStrategy({ egress: loopbackEgress() });
const loopbackConfig = { webhookHosts: [] as string[], requireHttps: false };

let teams: FakeService;
let webhookUrl: string;
beforeAll(async () => {
  // Workflows answers 202 Accepted with an empty body.
  teams = await startFakeService(() => ({ status: 202 }));
  webhookUrl = `${teams.url}/workflows/7d1c/triggers/manual/paths/invoke?sig=s3cret-signature`;
  loopbackConfig.webhookHosts = [new URL(teams.url).host];
});
afterAll(() => teams.close());

const send = (notification = {}, config: unknown = loopbackConfig, contact = webhookUrl) =>
  strategy.send(sendContextFor(strategy, { contact, config, notification }));

describe('Teams strategy', () => {
  it('posts an Adaptive Card with the title, the body as plain text runs and the action as Action.OpenUrl', async () => {
    const before = teams.requests.length;
    const result = await send({
      body: 'Since **12:00**, see [this](https://evil.example) <at>everyone</at>',
      action: { label: 'Open check', url: 'https://status.example/checks/1' },
    });
    expect(result).toEqual({ success: true });
    const request = teams.requests[before]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/workflows/7d1c/triggers/manual/paths/invoke?sig=s3cret-signature');
    expect(request.headers['content-type']).toBe('application/json');
    const message = jsonBody(request);
    expect(message.type).toBe('message');
    const [attachment] = message.attachments as {
      contentType: string;
      content: Record<string, unknown>;
    }[];
    expect(attachment!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = attachment!.content as {
      type: string;
      body: { type: string; inlines: { type: string; text: string; color?: string }[] }[];
      actions: unknown[];
    };
    expect(card.type).toBe('AdaptiveCard');
    // Text runs: Teams reads no Markdown in them, so content makes no links or mentions.
    expect(card.body.every((block) => block.type === 'RichTextBlock')).toBe(true);
    expect(card.body[0]!.inlines[0]).toMatchObject({
      text: 'Checkout is down',
      color: 'Attention',
    });
    const bodyText = card.body[1]!.inlines[0]!.text;
    expect(bodyText).toContain('Since 12:00');
    expect(bodyText).not.toContain('**');
    expect(bodyText).not.toContain('](');
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open check', url: 'https://status.example/checks/1' },
    ]);
  });

  it(`keeps the body within ${TEAMS_BODY_LIMIT} characters`, async () => {
    const before = teams.requests.length;
    expect(await send({ body: 'word '.repeat(5_000), importance: 'info' })).toEqual({
      success: true,
    });
    const card = (
      jsonBody(teams.requests[before]).attachments as {
        content: { body: { inlines: { text: string; color?: string }[] }[] };
      }[]
    )[0]!.content;
    expect(card.body[1]!.inlines[0]!.text.length).toBeLessThanOrEqual(TEAMS_BODY_LIMIT);
    expect(card.body[1]!.inlines[0]!.text.length).toBeGreaterThan(TEAMS_BODY_LIMIT - 100);
    expect(card.body[0]!.inlines[0]!.color).toBe('Accent');
  });

  it('answers a 429 with Retry-After as a retry no sooner than asked', async () => {
    teams.answerNext({ status: 429, headers: { 'retry-after': '7' }, body: 'slow down' });
    const result = await send();
    expect(result).toMatchObject({ success: false, retryAfterMs: 7_000 });
    expect(result.permanent).toBeUndefined();
  });

  it('fails at once when the workflow is gone (404)', async () => {
    teams.answerNext({ status: 404, body: { error: { code: 'WorkflowNotFound' } } });
    expect(await send()).toMatchObject({ success: false, permanent: true });
  });

  it('retries when Teams cannot be reached', async () => {
    const gone = await startFakeService();
    await gone.close();
    const result = await send(
      {},
      { webhookHosts: [new URL(gone.url).host], requireHttps: false },
      `${gone.url}/hook`,
    );
    expect(result).toMatchObject({
      success: false,
      error: expect.stringContaining('could not be reached'),
    });
    expect(result.permanent).toBeUndefined();
  });

  describe('refuses a webhook URL before any request', () => {
    it('on a host outside the allowed ones', async () => {
      const before = teams.requests.length;
      const result = await send(
        {},
        { webhookHosts: ['*.webhook.office.com'], requireHttps: false },
      );
      expect(result).toMatchObject({
        success: false,
        permanent: true,
        error: expect.stringContaining('not among the allowed hosts'),
      });
      expect(teams.requests.length).toBe(before);
    });

    it('over plain http while https is required (the default)', async () => {
      const result = await send({}, { webhookHosts: ['*'] });
      expect(result).toMatchObject({
        success: false,
        permanent: true,
        error: expect.stringContaining('https'),
      });
    });
  });

  it('accepts tenant-specific Workflows hosts by default', () => {
    const { webhookHosts } = strategy.config.schema.parse({});
    expect(webhookHosts).toEqual(
      expect.arrayContaining(['*.webhook.office.com', '*.logic.azure.com', '*.powerplatform.com']),
    );
  });

  it('keeps the webhook URL secret and never quotes it in an error', async () => {
    expect(secretFieldPaths(strategy.userConfig!.schema)).toEqual([['webhookUrl']]);
    teams.answerNext({ status: 400, body: 'bad card' });
    const result = await send();
    expect(result.error).not.toContain('s3cret-signature');
  });

  describe('refuses private addresses without connecting', () => {
    const guarded = createTeamsStrategy({ egress: createEgress() });

    it('as the user saves the webhook URL', async () => {
      const issues = await guarded.validateConfig!({
        layer: 'userConfig',
        value: { webhookUrl: 'https://10.0.0.1/workflows/1' },
      });
      expect(issues).toEqual([
        { path: 'webhookUrl', message: expect.stringContaining('10.0.0.1') },
      ]);
    });

    it('at send, failing for good', async () => {
      const result = await guarded.send(
        sendContextFor(guarded, {
          contact: 'https://169.254.169.254/latest/meta-data',
          config: { webhookHosts: ['*'] },
        }),
      );
      expect(result).toMatchObject({
        success: false,
        permanent: true,
        error: expect.stringContaining('169.254.169.254'),
      });
    });
  });
});
