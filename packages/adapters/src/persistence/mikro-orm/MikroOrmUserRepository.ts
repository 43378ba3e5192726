import { User, type UserRepository } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { UserSchema } from './entities/UserSchema.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';

/** What `MikroOrmUserRepository` needs. */
export interface MikroOrmUserRepositoryDeps {
  orm: BrowserdeckOrm;
}

/** `UserRepository` on MikroORM (SQLite, PostgreSQL), through its Kysely integration (`KyselyQueries`). */
export class MikroOrmUserRepository implements UserRepository {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmUserRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async ensure(user: User): Promise<User> {
    const { db } = this.queries;
    return withDatabaseErrors(async () => {
      // insert … on conflict do nothing, then read: concurrent ensures all see the one stored row.
      await this.queries.run(
        db
          .insertInto('users')
          .values({ id: user.id, email: user.email, created_at: user.createdAt })
          .onConflict((oc) => oc.column('id').doNothing()),
      );
      const stored = await this.findById(user.id);
      if (!stored) throw new Error(`User ${user.id} was neither inserted nor found.`);
      return stored;
    });
  }

  async findById(id: string): Promise<User | null> {
    if (!isUuid(id)) return null;
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.entities(UserSchema, db.selectFrom('users').selectAll().where('id', '=', id)),
    );
    return row
      ? User.restore({ id: row.id as string, email: row.email as string, createdAt: row.createdAt as Date })
      : null;
  }
}
