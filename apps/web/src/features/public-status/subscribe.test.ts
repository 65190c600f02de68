import { describe, expect, it } from 'vitest';
import { emailIssue, subscribeOutcome, waitText } from './subscribe.ts';

describe('emailIssue', () => {
  it('accepts an address as the route does, trimmed and in any case', () => {
    expect(emailIssue('visitor@example.net')).toBeUndefined();
    expect(emailIssue('  Visitor@Example.NET ')).toBeUndefined();
  });

  it('names the problem of anything else', () => {
    for (const bad of ['', 'visitor', 'visitor@', '@example.net', `${'a'.repeat(250)}@x.io`]) {
      expect({ bad, issue: emailIssue(bad) }).toEqual({
        bad,
        issue: expect.stringMatching(/.+/) as unknown,
      });
    }
  });
});

describe('subscribeOutcome', () => {
  it('reads each answer the route promises', () => {
    expect(subscribeOutcome(new Response('{}', { status: 202 }))).toEqual({ kind: 'accepted' });
    expect(subscribeOutcome(new Response('{}', { status: 404 }))).toEqual({ kind: 'not-found' });
    expect(subscribeOutcome(new Response('{}', { status: 400 }))).toEqual({
      kind: 'invalid',
      message: 'An e-mail address such as you@example.com',
    });
    expect(
      subscribeOutcome(new Response('{}', { status: 429, headers: { 'retry-after': '1200' } })),
    ).toEqual({ kind: 'limited', retryAfterSeconds: 1200 });
  });

  it('asks for a minute when a 429 names no usable wait, and throws on anything else', () => {
    expect(subscribeOutcome(new Response('{}', { status: 429 }))).toEqual({
      kind: 'limited',
      retryAfterSeconds: 60,
    });
    expect(() => subscribeOutcome(new Response('{}', { status: 500 }))).toThrow('HTTP 500');
  });
});

describe('waitText', () => {
  it('rounds the wait up to whole seconds, minutes or hours', () => {
    expect(waitText(1)).toBe('1 second');
    expect(waitText(59)).toBe('59 seconds');
    expect(waitText(60)).toBe('1 minute');
    expect(waitText(61)).toBe('2 minutes');
    expect(waitText(3_599)).toBe('60 minutes');
    expect(waitText(3_600)).toBe('1 hour');
    expect(waitText(5_000)).toBe('2 hours');
  });
});
