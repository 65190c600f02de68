import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { secret } from '@checkline/notification-node';
import { REDACTED, scrubSecrets, secretValuesOf } from './scrub-secrets.ts';

const PASSWORD = 'p@ss wörd/+=42';
const USER = 'mailer@example.com';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

describe('scrubSecrets', () => {
  it.each([
    ['raw', PASSWORD],
    ['URL-encoded', encodeURIComponent(PASSWORD)],
    ['form-encoded', encodeURIComponent(PASSWORD).replace(/%20/g, '+')],
    ['base64', b64(PASSWORD)],
    ['base64url', b64url(PASSWORD)],
    ['a Basic header', `Basic ${b64(`${USER}:${PASSWORD}`)}`],
    ['an AUTH PLAIN blob', `AUTH PLAIN ${b64(`\0${USER}\0${PASSWORD}`)}`],
    ['base64 glued to other text', `x${b64(`prefix-${PASSWORD}-suffix`)}`],
    ['base64 in a longer blob at every alignment', b64(`ab${PASSWORD}`) + b64(`a${PASSWORD}`)],
  ])('blanks a secret echoed %s', (_form, echoed) => {
    const text = `Service answered HTTP 401: you sent ${echoed}; try again`;
    const scrubbed = scrubSecrets(text, [PASSWORD, USER]);
    expect(scrubbed).toContain(REDACTED);
    expect(scrubbed).toMatch(/^Service answered HTTP 401: you sent /);
    for (const form of [PASSWORD, encodeURIComponent(PASSWORD), b64(PASSWORD), b64url(PASSWORD)])
      expect(scrubbed).not.toContain(form);
    expect(scrubbed).not.toMatch(/ss w|w.rd/);
  });

  it('blanks the path, query and token of a secret URL echoed without its origin', () => {
    const hook = 'https://example.webhook.office.com/workflows/abc/invoke?sig=s1gnatureS3cretValue';
    const discord = 'https://discord.com/api/webhooks/99/t0kenPartOfTheWebhookUrl';
    const text = `400: POST /workflows/abc/invoke?sig=s1gnatureS3cretValue and /api/webhooks/99/t0kenPartOfTheWebhookUrl?wait=true`;
    const scrubbed = scrubSecrets(text, [hook, discord]);
    expect(scrubbed).not.toMatch(/s1gnatureS3cretValue|t0kenPartOfTheWebhookUrl/);
    expect(scrubbed).toMatch(/^400: POST /);
  });

  it('leaves a text without secrets as it was', () => {
    const text = 'Telegram answered HTTP 400: Bad Request: chat not found (dGVzdA==)';
    expect(scrubSecrets(text, [PASSWORD, USER])).toBe(text);
  });
});

describe('secretValuesOf', () => {
  it('reads every marked value, nested, in lists and records, as text', () => {
    const schema = z.object({
      host: z.string(),
      token: secret(),
      port: secret(z.number()).optional(),
      headers: z.array(z.object({ value: secret() })),
      keys: z.record(z.string(), secret()),
    });
    const value = {
      host: 'h',
      token: 't1',
      port: 25,
      headers: [{ value: 'v1' }, { value: 'v2' }],
      keys: { a: 'k1' },
    };
    expect(secretValuesOf(schema, value)).toEqual(['t1', '25', 'v1', 'v2', 'k1']);
    expect(secretValuesOf(undefined, value)).toEqual([]);
  });
});
