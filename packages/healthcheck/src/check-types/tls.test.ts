import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetPolicy } from '@checkline/net';
import { fixedResolver, recordClientSockets } from '@checkline/net/testing';
import { loopbackAllowed } from '../testing/harness.ts';
import { closedPort } from '../testing/targets.ts';
import { startTlsTarget, testCertificateAuthority } from '../testing/tls-target.ts';
import type { TlsCheckConfig } from './tls.ts';
import { TlsCheckConfigSchema, tlsCheckType } from './tls.ts';

type Target = Awaited<ReturnType<typeof startTlsTarget>>;
const ca = testCertificateAuthority();
const loopbackNames = [{ ip: '127.0.0.1' }, { dns: 'localhost' }];
const targets: Record<string, Target> = {};

beforeAll(async () => {
  const leaves = {
    fresh: ca.issue({ altNames: loopbackNames, untilDays: 90.5 }),
    expiring: ca.issue({ altNames: loopbackNames, untilDays: 10.5 }),
    critical: ca.issue({ altNames: loopbackNames, untilDays: 3.5 }),
    expired: ca.issue({ altNames: loopbackNames, fromDays: -60, untilDays: -2 }),
    otherHost: ca.issue({ altNames: [{ dns: 'other.test' }], untilDays: 90 }),
  };
  for (const [name, leaf] of Object.entries(leaves)) targets[name] = await startTlsTarget(leaf);
});
afterAll(async () => {
  for (const target of Object.values(targets)) await target.close();
});

const loopback = createTargetPolicy(loopbackAllowed);
const run = (target: string, config: Partial<TlsCheckConfig> = {}, policy = loopback) =>
  tlsCheckType.run(
    TlsCheckConfigSchema.parse({
      host: '127.0.0.1',
      port: targets[target]!.port,
      ca: ca.pem,
      ...config,
    }),
    { signal: new AbortController().signal, timeoutMs: 5_000, targets: policy },
  );

describe('tls check type', () => {
  describe('works', () => {
    it('passes a valid chain for the host, saying how many days are left', async () => {
      const outcome = await run('fresh');
      expect(outcome).toMatchObject({
        status: 'pass',
        message: expect.stringMatching(/^Certificate of 127\.0\.0\.1:\d+ expires in 90 days \(/),
      });
    });

    it('warns under the warning threshold and fails under the critical one', async () => {
      await expect(run('expiring')).resolves.toMatchObject({
        status: 'warn',
        message: expect.stringMatching(/expires in 10 days .*, under the warning 14$/),
      });
      await expect(run('critical')).resolves.toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/expires in 3 days .*, under the critical 7$/),
      });
      await expect(run('expiring', { warningDays: 30, criticalDays: 11 })).resolves.toMatchObject({
        status: 'fail',
      });
      await expect(run('critical', { warningDays: 3, criticalDays: 1 })).resolves.toMatchObject({
        status: 'pass',
      });
    });

    it('fails an expired certificate, one for another host and one from an unknown authority', async () => {
      await expect(run('expired')).resolves.toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/is not valid: CERT_HAS_EXPIRED$/),
      });
      await expect(run('otherHost')).resolves.toMatchObject({
        status: 'fail',
        message: expect.stringMatching(
          /is not valid: .*(ALTNAME|IP: 127\.0\.0\.1 is not in the cert)/,
        ),
      });
      const untrusted = await tlsCheckType.run(
        TlsCheckConfigSchema.parse({ host: '127.0.0.1', port: targets.fresh!.port }),
        { signal: new AbortController().signal, timeoutMs: 5_000, targets: loopback },
      );
      expect(untrusted).toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/is not valid: UNABLE_TO_VERIFY_LEAF_SIGNATURE$/),
      });
    });

    it('checks the certificate against the host name it connects to', async () => {
      const resolve = fixedResolver({ 'other.test': ['127.0.0.1'] });
      const policy = createTargetPolicy({ ...loopbackAllowed, resolve });
      await expect(run('otherHost', { host: 'other.test' }, policy)).resolves.toMatchObject({
        status: 'pass',
      });
      await expect(run('fresh', { host: 'other.test' }, policy)).resolves.toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/ERR_TLS_CERT_ALTNAME_INVALID|not in the cert/),
      });
      await expect(run('fresh', { host: 'localhost' })).resolves.toMatchObject({ status: 'pass' });
    });

    it('fails on a port that speaks no TLS', async () => {
      const outcome = await run('fresh', { port: await closedPort() });
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toMatch(/^ECONNREFUSED/);
    });
  });

  describe('keeps to the target policy', () => {
    it('refuses loopback and metadata hosts unless allowed, never connecting', async () => {
      const strict = createTargetPolicy({
        resolve: fixedResolver({ 'imds.invalid': ['169.254.169.254'] }),
      });
      const sockets = recordClientSockets();
      const before = targets.fresh!.connections();
      try {
        for (const host of ['127.0.0.1', 'localhost', 'imds.invalid']) {
          await expect(run('fresh', { host }, strict)).resolves.toMatchObject({
            status: 'fail',
            message: expect.stringMatching(/^Target refused/),
          });
        }
        expect(sockets.created()).toBe(0);
        expect(targets.fresh!.connections()).toBe(before);
      } finally {
        sockets.stop();
      }
    });
  });

  describe('rejects bad input', () => {
    it('refuses a critical threshold not below the warning one, and a ca that is no PEM', () => {
      for (const config of [
        { host: 'example.com', warningDays: 7, criticalDays: 7 },
        { host: 'example.com', ca: 'not a certificate' },
        { host: 'example.com', port: 0 },
        { host: 'two words' },
      ]) {
        expect(TlsCheckConfigSchema.safeParse(config).success, JSON.stringify(config)).toBe(false);
      }
    });

    it('fills the defaults', () => {
      expect(TlsCheckConfigSchema.parse({ host: 'example.com' })).toEqual({
        host: 'example.com',
        port: 443,
        warningDays: 14,
        criticalDays: 7,
      });
    });
  });
});
