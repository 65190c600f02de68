import { describe, expect, it } from 'vitest';
import { assertAcceptablePassword, passwordProblem } from './password-policy.ts';

describe('password policy', () => {
  it('accepts a long password that is not a common one', () => {
    expect(passwordProblem('correct horse battery staple')).toBeUndefined();
    expect(passwordProblem('test-admin-password')).toBeUndefined();
  });

  it('refuses anything under 12 characters, counting characters rather than UTF-16 units', () => {
    expect(passwordProblem('elevenchars')).toMatch(/at least 12 characters/);
    expect(passwordProblem('😀'.repeat(11))).toMatch(/at least 12 characters/);
    expect(passwordProblem('😀'.repeat(12))).toBeUndefined();
  });

  it('refuses common passwords whatever their case', () => {
    for (const password of ['password1234', 'QWERTY123456', '1q2w3e4r5t6y', '123456789012']) {
      expect(passwordProblem(password), password).toMatch(/too common/);
    }
  });

  it('throws BAD_REQUEST with an issue on the named field', () => {
    expect(() => assertAcceptablePassword('short', 'newPassword')).toThrow(
      expect.objectContaining({
        code: 'BAD_REQUEST',
        data: { issues: [{ path: 'newPassword', message: expect.stringMatching(/12/) }] },
      }),
    );
  });
});
