import { describe, expect, it } from 'vitest';
import { buildErrorUrl, encodeErrorMessage, redirectToError } from './error-redirect.ts';

describe('error redirect helpers', () => {
  it('encode a message by turning spaces into underscores', () => {
    expect(encodeErrorMessage('Invalid username or password')).toBe('Invalid_username_or_password');
  });

  it('build the error page URL under the frontend, URL-encoded', () => {
    expect(buildErrorUrl('Registration is disabled', 'https://app.example.com/')).toBe(
      'https://app.example.com/auth/error?error=Registration_is_disabled',
    );
    expect(buildErrorUrl('50% & <b>no</b>?', 'https://app.example.com')).toBe(
      'https://app.example.com/auth/error?error=50%25_%26_%3Cb%3Eno%3C%2Fb%3E%3F',
    );
    expect(buildErrorUrl('Try again')).toBe('/auth/error?error=Try_again');
  });

  it('redirect with a 302 that is not cached', () => {
    const response = redirectToError('Nope', 'https://app.example.com', { 'retry-after': '5' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://app.example.com/auth/error?error=Nope');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('retry-after')).toBe('5');
  });
});
