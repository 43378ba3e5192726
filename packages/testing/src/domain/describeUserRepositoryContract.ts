import type { UserRepository } from '@browserdeck/domain';
import { DomainError, User } from '@browserdeck/domain';
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
      expect(found?.disabledAt).toBeNull();
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

    it('finds a user by e-mail, exactly as stored', async () => {
      const users = await options.create();
      const id = '0190a000-0000-7000-8000-000000000005';
      const email = "o'brien+\\?$1@exämple.com";
      await users.ensure(User.create({ id, email, createdAt: at }));
      expect((await users.findByEmail(email))?.id).toBe(id);
      expect(await users.findByEmail('O’Brien@example.com')).toBeNull();
      expect(await users.findByEmail('nobody@example.com')).toBeNull();
    });

    it('disables and enables an account, to the millisecond', async () => {
      const users = await options.create();
      const id = '0190a000-0000-7000-8000-000000000006';
      await users.ensure(User.create({ id, email: 'd@example.com', createdAt: at }));
      const disabledAt = new Date('2026-03-05T01:02:03.456Z');
      expect(await users.setDisabled(id, disabledAt)).toBe(true);
      expect((await users.findById(id))?.disabledAt?.toISOString()).toBe(disabledAt.toISOString());
      expect((await users.findByEmail('d@example.com'))?.disabledAt?.toISOString()).toBe(
        disabledAt.toISOString(),
      );
      expect(
        (await users.ensure(User.create({ id, email: 'd@example.com', createdAt: at }))).disabledAt,
      ).toEqual(disabledAt);
      expect(await users.setDisabled(id, null)).toBe(true);
      expect((await users.findById(id))?.disabledAt).toBeNull();
      expect(await users.setDisabled('0190a000-0000-7000-8000-00000000fffe', disabledAt)).toBe(false);
      expect(await users.setDisabled('not-a-user-id', disabledAt)).toBe(false);
    });

    it('lists every account oldest first, a page at a time, ties by id', async () => {
      const users = await options.create();
      const ids = Array.from({ length: 5 }, (_, i) => `0190a000-0000-7000-8000-0000000001${i}0`);
      // Two share a creation time; inserted out of order.
      const created = [3, 1, 1, 4, 5].map((minute) => new Date(at.getTime() + minute * 60_000));
      for (const i of [4, 2, 0, 3, 1]) {
        await users.ensure(
          User.create({ id: ids[i] as string, email: `u${i}@example.com`, createdAt: created[i] as Date }),
        );
      }
      const expected = [ids[1], ids[2], ids[0], ids[3], ids[4]];
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 3; page++) {
        const answer = await users.list({ cursor, limit: 2 });
        expect(answer.users.every((u) => u instanceof User)).toBe(true);
        seen.push(...answer.users.map((u) => u.id));
        if (page < 2) expect(answer.nextCursor).toEqual(expect.any(String));
        else expect(answer.nextCursor).toBeNull();
        cursor = answer.nextCursor ?? undefined;
      }
      expect(seen).toEqual(expected);
      const all = await users.list({ limit: 5 });
      expect(all.users.map((u) => u.id)).toEqual(expected);
      expect(all.nextCursor).toBeNull();
      expect(all.users[0]?.createdAt.toISOString()).toBe(created[1]?.toISOString());
    });

    it('lists nothing in an empty store, and refuses a cursor it did not give', async () => {
      const users = await options.create();
      expect(await users.list({ limit: 10 })).toEqual({ users: [], nextCursor: null });
      const refused = await users
        .list({ cursor: 'not a cursor', limit: 10 })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).code).toBe('validation_failed');
    });
  });
}
