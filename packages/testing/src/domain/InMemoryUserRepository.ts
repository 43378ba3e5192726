import type { User, UserPage, UserRepository } from '@browserdeck/domain';
import { User as UserRecord } from '@browserdeck/domain';
import { decodePageCursor, encodePageCursor } from './pageCursor.ts';

/** Users in a Map; stores copies, so `setDisabled` is the one way to change a stored user. */
export class InMemoryUserRepository implements UserRepository {
  private readonly users = new Map<string, User>();

  async ensure(user: User): Promise<User> {
    const existing = this.users.get(user.id);
    if (existing) return copy(existing);
    this.users.set(user.id, copy(user));
    return copy(user);
  }

  async findById(id: string): Promise<User | null> {
    const user = this.users.get(id);
    return user ? copy(user) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    // The oldest account with the e-mail, as a database without a unique index would answer first.
    const user = this.oldestFirst().find((u) => u.email === email);
    return user ? copy(user) : null;
  }

  async setDisabled(userId: string, disabledAt: Date | null): Promise<boolean> {
    const user = this.users.get(userId);
    if (!user) return false;
    this.users.set(userId, UserRecord.restore({ ...user, disabledAt }));
    return true;
  }

  async list(page: { cursor?: string | undefined; limit: number }): Promise<UserPage> {
    const after = page.cursor === undefined ? null : decodePageCursor(page.cursor);
    const rest = this.oldestFirst().filter(
      (u) =>
        !after ||
        u.createdAt.getTime() > after.at.getTime() ||
        (u.createdAt.getTime() === after.at.getTime() && u.id > after.id),
    );
    const users = rest.slice(0, page.limit).map(copy);
    const last = users.at(-1);
    return {
      users,
      nextCursor:
        last && rest.length > users.length ? encodePageCursor({ at: last.createdAt, id: last.id }) : null,
    };
  }

  private oldestFirst(): User[] {
    return [...this.users.values()].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  }
}

function copy(user: User): User {
  return UserRecord.restore({ ...user });
}
