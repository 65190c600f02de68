import { secretFieldPaths } from '@checkline/notification-node';
import type { FakeService } from '@checkline/notification-node/testing';
import {
  jsonBody,
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLOUR_BY_IMPORTANCE, DISCORD_DESCRIPTION_LIMIT } from './embed.ts';
import { createDiscordStrategy } from './strategy.ts';

const strategy = createDiscordStrategy({ egress: loopbackEgress() });

interface Embed {
  title: string;
  url?: string;
  description?: string;
  color: number;
}

let discord: FakeService;
let webhookUrl: string;
let config: { webhookHosts: string[]; requireHttps: boolean };
beforeAll(async () => {
  // With ?wait=true Discord answers 200 and the message it created.
  discord = await startFakeService(() => ({ status: 200, body: { id: '1100', type: 0 } }));
  webhookUrl = `${discord.url}/api/webhooks/1234/t0ken-part-of-the-url`;
  config = { webhookHosts: [new URL(discord.url).host], requireHttps: false };
});
afterAll(() => discord.close());

const send = (notification = {}, contact = webhookUrl) =>
  strategy.send(sendContextFor(strategy, { contact, config, notification }));
const lastEmbed = () => (jsonBody(discord.requests.at(-1)).embeds as Embed[])[0]!;

describe('Discord strategy', () => {
  it('posts one embed coloured by importance, mentions switched off, escaped body and the action link', async () => {
    const result = await send({
      body: 'Since **12:00** @everyone <@123> [phish](https://evil.example)',
      importance: 'critical',
      action: { label: 'Open check', url: 'https://status.example/checks/1' },
    });
    expect(result).toEqual({ success: true });
    const request = discord.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/webhooks/1234/t0ken-part-of-the-url?wait=true');
    expect(request.headers['content-type']).toBe('application/json');
    const message = jsonBody(request);
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(message.content).toBeUndefined();
    const embed = lastEmbed();
    expect(embed.title).toBe('Checkout is down');
    expect(embed.url).toBe('https://status.example/checks/1');
    expect(embed.color).toBe(COLOUR_BY_IMPORTANCE.critical);
    expect(embed.description).toContain('Since 12:00');
    // Markdown and mention syntax from content is escaped: no ping, no link of its own.
    expect(embed.description).toContain('\\@everyone');
    expect(embed.description).not.toMatch(/(^|[^\\])(@everyone|<@)/);
    expect(embed.description).not.toMatch(/[^\\]\[phish\]/);
    expect(embed.description!.endsWith('[Open check](https://status.example/checks/1)')).toBe(true);
  });

  it('colours a warning amber and an info blue', async () => {
    await send({ importance: 'warning' });
    expect(lastEmbed().color).toBe(COLOUR_BY_IMPORTANCE.warning);
    await send({ importance: 'info' });
    expect(lastEmbed().color).toBe(COLOUR_BY_IMPORTANCE.info);
  });

  it(`keeps the description within ${DISCORD_DESCRIPTION_LIMIT} characters, escapes included`, async () => {
    await send({
      body: '*_'.repeat(4_000),
      action: { label: 'Open', url: 'https://status.example/x' },
    });
    const { description } = lastEmbed();
    expect(description!.length).toBeLessThanOrEqual(DISCORD_DESCRIPTION_LIMIT);
    expect(description).toContain('[Open](https://status.example/x)');
  });

  it("answers a 429 with the body's retry_after (seconds) as retryAfterMs", async () => {
    discord.answerNext({
      status: 429,
      body: { message: 'You are being rate limited.', retry_after: 2.5, global: false },
    });
    const result = await send();
    expect(result).toMatchObject({ success: false, retryAfterMs: 2_500 });
    expect(result.permanent).toBeUndefined();
  });

  it('fails at once for a deleted webhook (404 Unknown Webhook)', async () => {
    discord.answerNext({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    expect(await send()).toMatchObject({
      success: false,
      permanent: true,
      error: expect.stringContaining('Unknown Webhook'),
    });
  });

  it('refuses a webhook on another host without a request', async () => {
    const before = discord.requests.length;
    const result = await send({}, 'http://attacker.example/api/webhooks/1/x');
    expect(result).toMatchObject({ success: false, permanent: true });
    expect(discord.requests.length).toBe(before);
  });

  it('keeps the webhook URL secret and out of errors', async () => {
    expect(secretFieldPaths(strategy.userConfig!.schema)).toEqual([['webhookUrl']]);
    discord.answerNext({ status: 401, body: { message: 'Invalid Webhook Token', code: 50027 } });
    const result = await send();
    expect(result.permanent).toBe(true);
    expect(result.error).not.toContain('t0ken-part-of-the-url');
  });

  it('defaults to Discord hosts over https', () => {
    expect(strategy.config.schema.parse({})).toEqual({
      webhookHosts: ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com'],
      requireHttps: true,
    });
  });
});
