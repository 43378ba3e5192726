import type { UserRepository } from '@browserdeck/domain';
import { User } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** Behaviour every `UserRepository` must have. `create` gives a fresh, empty repository. */
export function describeUserRepositoryContract(
  name: string,
  options: { create: () => Promise<UserRepository> },
): void {
  describe(`UserRepository contract: ${name}`, () => {
    const at = new Date('2026-03-04T05:06:07.089Z');

    it('stores a new user and finds it by id, timestamps to the millisecond', async () => {
      const users = await options.create();
      const stored = await users.ensure(
        User.create({ id: '0190a000-0000-7000-8000-000000000001', email: 'a@example.com', createdAt: at }),
      );
      expect(stored).toMatchObject({ id: '0190a000-0000-7000-8000-000000000001', email: 'a@example.com' });
      const found = await users.findById('0190a000-0000-7000-8000-000000000001');
      expect(found?.email).toBe('a@example.com');
      expect(found?.createdAt.toISOString()).toBe(at.toISOString());
      expect(found).toBeInstanceOf(User);
    });

    it('keeps the first record when ensured again', async () => {
      const users = await options.create();
      await users.ensure(
        User.create({
          id: '0190a000-0000-7000-8000-000000000002',
          email: 'first@example.com',
          createdAt: at,
        }),
      );
      const again = await users.ensure(
        User.create({
          id: '0190a000-0000-7000-8000-000000000002',
          email: 'second@example.com',
          createdAt: new Date(),
        }),
      );
      expect(again.email).toBe('first@example.com');
    });

    it('survives 20 concurrent ensures of one new user', async () => {
      const users = await options.create();
      const id = '0190a000-0000-7000-8000-000000000003';
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          users.ensure(User.create({ id, email: 'race@example.com', createdAt: at })),
        ),
      );
      expect(new Set(results.map((u) => u.id))).toEqual(new Set([id]));
    });

    it('stores an e-mail with quotes, placeholders and non-ASCII letters exactly', async () => {
      const users = await options.create();
      const email = "o'brien+\\?$1@exämple.com";
      await users.ensure(User.create({ id: '0190a000-0000-7000-8000-000000000004', email, createdAt: at }));
      expect((await users.findById('0190a000-0000-7000-8000-000000000004'))?.email).toBe(email);
    });

    it('finds nothing for an unknown id', async () => {
      const users = await options.create();
      expect(await users.findById('0190a000-0000-7000-8000-00000000ffff')).toBeNull();
    });
  });
}
