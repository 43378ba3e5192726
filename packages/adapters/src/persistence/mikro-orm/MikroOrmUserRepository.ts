import { User, type UserPage, type UserRepository } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { UserSchema } from './entities/UserSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import { decodePageCursor, encodePageCursor } from './pageCursor.ts';

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
          .values({
            id: user.id,
            email: user.email,
            created_at: user.createdAt,
            disabled_at: user.disabledAt ?? null,
          })
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
    const [user] = await this.read(db.selectFrom('users').selectAll().where('id', '=', id));
    return user ?? null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const { db } = this.queries;
    // The oldest account with the e-mail, should an identity provider have made two.
    const [user] = await this.read(
      db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(1),
    );
    return user ?? null;
  }

  async setDisabled(userId: string, disabledAt: Date | null): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const { db } = this.queries;
    const changed = await withDatabaseErrors(() =>
      this.queries.run(db.updateTable('users').set({ disabled_at: disabledAt }).where('id', '=', userId)),
    );
    return changed > 0;
  }

  async list(page: { cursor?: string | undefined; limit: number }): Promise<UserPage> {
    const after = page.cursor === undefined ? null : decodePageCursor(page.cursor);
    const { db } = this.queries;
    let query = db.selectFrom('users').selectAll();
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '>', after.at),
          eb.and([eb('created_at', '=', after.at), eb('id', '>', after.id)]),
        ]),
      );
    // One row past the page tells whether another page follows.
    const users = await this.read(
      query
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(page.limit + 1),
    );
    const shown = users.slice(0, page.limit);
    const last = shown.at(-1);
    return {
      users: shown,
      nextCursor:
        last && users.length > shown.length ? encodePageCursor({ at: last.createdAt, id: last.id }) : null,
    };
  }

  private async read(query: Query): Promise<User[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(UserSchema, query));
    return rows.map((row) =>
      User.restore({
        id: row.id as string,
        email: row.email as string,
        createdAt: row.createdAt as Date,
        disabledAt: (row.disabledAt as Date | null | undefined) ?? null,
      }),
    );
  }
}
