import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundSecretFields, destinationIdentity, mergeStoredSecrets } from './bound-secrets.ts';
import { destination, secret } from './schema-marks.ts';

const schema = z.object({
  baseUrl: destination(z.url()).default('https://api.example.com'),
  host: destination(z.string()).optional(),
  port: destination(z.number()).default(5432),
  token: secret(),
  password: secret().optional(),
  headers: z.array(z.object({ name: z.string(), value: secret().optional() })).optional(),
});
const fields = boundSecretFields(schema);
const stored = {
  baseUrl: 'https://api.example.com',
  host: 'db.example.com',
  port: 5432,
  token: 'tok',
  password: 'pw',
  headers: [{ name: 'a', value: 'va' }],
};

describe('boundSecretFields', () => {
  it('lists the secrets and the destinations with their defaults', () => {
    expect(fields.secrets).toEqual([['token'], ['password'], ['headers', '*', 'value']]);
    expect(fields.destinations).toEqual([
      { path: ['baseUrl'], fallback: 'https://api.example.com' },
      { path: ['host'], fallback: undefined },
      { path: ['port'], fallback: 5432 },
    ]);
  });
});

describe('mergeStoredSecrets', () => {
  it('keeps secrets left out, at the same path, and clears those given as null', () => {
    const input = { ...stored, token: undefined, password: null, headers: [{ name: 'a' }] };
    expect(mergeStoredSecrets(input, stored, fields)).toEqual({
      value: {
        ...stored,
        token: 'tok',
        password: undefined,
        headers: [{ name: 'a', value: 'va' }],
      },
      dropped: [],
      changedDestinations: [],
    });
  });

  it.each([
    ['the URL origin', { baseUrl: 'http://127.0.0.1:5150' }],
    ['the URL scheme', { baseUrl: 'http://api.example.com' }],
    ['the URL port', { baseUrl: 'https://api.example.com:8443' }],
    ['the host', { host: 'evil.example.net' }],
    ['the host, cleared', { host: null }],
    ['the port', { port: 6543 }],
    ['a default left for another value', { baseUrl: undefined, port: 1 }],
  ])('drops every stored secret not sent again when %s changes', (_name, change) => {
    const input = { ...stored, token: undefined, password: undefined, headers: [{ name: 'a' }] };
    const merged = mergeStoredSecrets({ ...input, ...change }, stored, fields);
    expect(merged.dropped).toEqual(['token', 'password', 'headers.0.value']);
    expect(JSON.stringify(merged.value)).not.toMatch(/tok|pw|va/);
  });

  it('keeps a secret sent again with the new destination, and drops the others', () => {
    const input = {
      ...stored,
      host: 'other',
      token: 'new-token',
      password: undefined,
      headers: [],
    };
    const merged = mergeStoredSecrets(input, stored, fields);
    expect(merged).toMatchObject({
      value: { host: 'other', token: 'new-token' },
      dropped: ['password'],
      changedDestinations: ['host'],
    });
  });

  it.each([
    ['a default left out', { baseUrl: undefined }],
    ['another path on the same origin', { baseUrl: 'https://API.example.com/v2/' }],
    ['the host in capitals', { host: 'DB.Example.com' }],
    ['the default port left out', { port: undefined }],
  ])('keeps the secrets when the destination stays: %s', (_name, change) => {
    const input = { ...stored, ...change, token: undefined, password: undefined };
    expect(mergeStoredSecrets(input, stored, fields)).toMatchObject({
      value: { token: 'tok', password: 'pw' },
      dropped: [],
    });
  });

  it('keeps a destination that is itself a secret when it is left out', () => {
    const own = boundSecretFields(z.object({ webhookUrl: destination(secret(z.url())) }));
    const kept = { webhookUrl: 'https://hooks.example.com/secret' };
    expect(mergeStoredSecrets({}, kept, own)).toEqual({
      value: kept,
      dropped: [],
      changedDestinations: [],
    });
  });
});

describe('destinationIdentity', () => {
  it('is the origin of a URL and the host or port otherwise', () => {
    expect(destinationIdentity('https://Example.com:443/a?b')).toBe('https://example.com');
    expect(destinationIdentity('http://example.com:8080/')).toBe('http://example.com:8080');
    expect(destinationIdentity(' Host.Example ')).toBe('host.example');
    expect(destinationIdentity(5432)).toBe('5432');
    expect(destinationIdentity(undefined)).toBe('');
  });
});
