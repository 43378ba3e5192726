import { describe, expect, it } from 'vitest';
import { Argon2PasswordHasher } from './Argon2PasswordHasher.ts';

describe('Argon2PasswordHasher', () => {
  it('hashes with argon2id m=19456,t=2,p=1 by default and verifies', async () => {
    const hasher = new Argon2PasswordHasher();
    const hash = await hasher.hash('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hasher.verify(hash, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(hash, 'correct horse batterY')).toBe(false);
  });

  it('salts every hash', async () => {
    const hasher = new Argon2PasswordHasher({ memoryCost: 64, timeCost: 1 });
    expect(await hasher.hash('same password')).not.toBe(await hasher.hash('same password'));
  });

  it('verifies hashes made with other parameters, using theirs', async () => {
    const cheap = await new Argon2PasswordHasher({ memoryCost: 64, timeCost: 1 }).hash('pw-123456');
    expect(cheap).toContain('$m=64,t=1,p=1$');
    expect(await new Argon2PasswordHasher().verify(cheap, 'pw-123456')).toBe(true);
  });
});
