import { randomBytes } from 'node:crypto';
import { otherSpellingOfSameBytes } from '@checkline/core/testing';
import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE_MAX_AGE_SECONDS, DeviceCookies } from './device-cookie.ts';

const presenting = (setCookie: string) =>
  new Request('http://localhost/api/auth-backend/custom/login', {
    method: 'POST',
    headers: { cookie: `other=1; ${setCookie.split(';')[0]}` },
  });

describe('device cookies', () => {
  const key = randomBytes(32);

  it('name the account they were issued for, whatever the case of its e-mail', () => {
    const cookies = new DeviceCookies([key], false);
    const request = presenting(cookies.issue('Ann@Example.com'));
    const device = cookies.knownDevice(request, ' ann@example.COM ');
    expect(device?.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(cookies.knownDevice(request, 'bob@example.com')).toBeUndefined();
  });

  it('are told apart: two sign-ins give two devices', () => {
    const cookies = new DeviceCookies([key], false);
    const first = cookies.knownDevice(
      presenting(cookies.issue('ann@example.com')),
      'ann@example.com',
    );
    const second = cookies.knownDevice(
      presenting(cookies.issue('ann@example.com')),
      'ann@example.com',
    );
    expect(first!.id).not.toBe(second!.id);
  });

  it('are accepted under an older key after a rotation, and never under a foreign one', () => {
    const before = new DeviceCookies([key], false);
    const issued = before.issue('ann@example.com');
    const rotated = new DeviceCookies([randomBytes(32), key], false);
    expect(rotated.knownDevice(presenting(issued), 'ann@example.com')).toBeDefined();
    const foreign = new DeviceCookies([randomBytes(32)], false);
    expect(foreign.knownDevice(presenting(issued), 'ann@example.com')).toBeUndefined();
  });

  it('expire with their cookie', () => {
    let now = Date.UTC(2026, 0, 1);
    const cookies = new DeviceCookies([key], false, () => now);
    const request = presenting(cookies.issue('ann@example.com'));
    now += (DEVICE_COOKIE_MAX_AGE_SECONDS - 1) * 1000;
    expect(cookies.knownDevice(request, 'ann@example.com')).toBeDefined();
    now += 2_000;
    expect(cookies.knownDevice(request, 'ann@example.com')).toBeUndefined();
  });

  it('count as none when missing or malformed', () => {
    const cookies = new DeviceCookies([key], false);
    const valid = cookies.issue('ann@example.com').split(';')[0]!;
    const malformed = [
      '',
      'checkline_device=',
      `${valid}.extra`,
      valid.replace('=d1.', '=d2.'),
      valid.replace(/\.[0-9]+\./, '.-1.'),
      // The same MAC bytes spelled otherwise: the text is what is signed, not its decoding.
      otherSpellingOfSameBytes(valid),
    ];
    for (const cookie of malformed) {
      const request = new Request('http://localhost/', { headers: { cookie } });
      expect(cookies.knownDevice(request, 'ann@example.com'), cookie).toBeUndefined();
    }
  });

  it('are HttpOnly, for the sign-in routes, and Secure under https', () => {
    expect(new DeviceCookies([key], true).issue('ann@example.com')).toMatch(
      /^checkline_device=[^;]+; Path=\/api\/auth-backend; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/,
    );
    expect(new DeviceCookies([key], false).issue('ann@example.com')).not.toMatch(/Secure/);
  });
});
