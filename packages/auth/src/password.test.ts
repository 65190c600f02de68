import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './password.ts';

describe('passwords', () => {
  it('are hashed with scrypt and a salt of their own', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[^$]+\$[^$]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse');
  });

  it('verify only the right password', async () => {
    const stored = await hashPassword('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct hors', stored)).resolves.toBe(false);
    await expect(verifyPassword('correct horse', 'md5$abc')).resolves.toBe(false);
    await expect(verifyAgainstDecoy('correct horse')).resolves.toBe(false);
  });
});
