import { User, type UserRepository } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { UserSchema } from './entities/UserSchema.ts';

/** What `MikroOrmUserRepository` needs. */
export interface MikroOrmUserRepositoryDeps {
  orm: BrowserdeckOrm;
}

/** `UserRepository` on MikroORM (SQLite, PostgreSQL). Every call works on its own fork of the ORM. */
export class MikroOrmUserRepository implements UserRepository {
  private readonly deps: MikroOrmUserRepositoryDeps;

  constructor(deps: MikroOrmUserRepositoryDeps) {
    this.deps = deps;
  }

  async ensure(user: User): Promise<User> {
    return withDatabaseErrors(async () => {
      // insert … on conflict do nothing, then read: concurrent ensures all see the one stored row.
      await this.deps.orm.em
        .fork()
        .createQueryBuilder(UserSchema)
        .insert({ id: user.id, email: user.email, createdAt: user.createdAt })
        .onConflict('id')
        .ignore()
        .execute();
      const stored = await this.findById(user.id);
      if (!stored) throw new Error(`User ${user.id} was neither inserted nor found.`);
      return stored;
    });
  }

  async findById(id: string): Promise<User | null> {
    if (!isUuid(id)) return null;
    const row = await withDatabaseErrors(() => this.deps.orm.em.fork().findOne(UserSchema, { id }));
    return row && User.restore({ id: row.id, email: row.email, createdAt: row.createdAt });
  }
}
