import type { User, UserRepository } from '@browserdeck/domain';

/** Users in a Map. */
export class InMemoryUserRepository implements UserRepository {
  private readonly users = new Map<string, User>();

  async ensure(user: User): Promise<User> {
    const existing = this.users.get(user.id);
    if (existing) return existing;
    this.users.set(user.id, user);
    return user;
  }

  async findById(id: string): Promise<User | null> {
    return this.users.get(id) ?? null;
  }
}
