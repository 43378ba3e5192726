import { ConflictError } from '@browserdeck/domain';
import type {
  LocalCredential,
  LocalIdentityStore,
  LocalRefreshToken,
  LocalSignInSession,
} from '../../identity/local/LocalIdentityStore.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUniqueViolationOf, isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { LocalCredentialSchema } from './entities/LocalCredentialSchema.ts';
import { LocalRefreshTokenSchema } from './entities/LocalRefreshTokenSchema.ts';
import { LocalSignInSessionSchema } from './entities/LocalSignInSessionSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import { Statement } from './Statement.ts';
import { storedJson } from './storedJson.ts';

/** What `MikroOrmLocalIdentityStore` needs. */
export interface MikroOrmLocalIdentityStoreDeps {
  orm: BrowserdeckOrm;
}

/**
 * A sign-in session with its user's `disabled_at`, in one statement: a disabled account's tokens
 * end at once, without a query more on every request (SPEC §17). Prepared: every signed-in request
 * reads it (ADR 0037).
 */
const SESSION_WITH_USER = new Statement(
  (db, params: { id: string }) =>
    db
      .selectFrom('local_sign_in_sessions')
      .leftJoin('users', 'users.id', 'local_sign_in_sessions.user_id')
      .selectAll('local_sign_in_sessions')
      .select('users.disabled_at as user_disabled_at')
      .where('local_sign_in_sessions.id', '=', params.id),
  { prepared: true },
);

/**
 * `LocalIdentityStore` on MikroORM (SQLite, PostgreSQL), through its Kysely integration
 * (`KyselyQueries`). The rules that must hold across server instances are single statements: a
 * unique index for e-mails, and conditional updates (`… where used_at is null`, `… where revoked_at
 * is null`) for refresh-token use and revocation. `findSession` runs on every authenticated request.
 */
export class MikroOrmLocalIdentityStore implements LocalIdentityStore {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmLocalIdentityStoreDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async addCredential(credential: LocalCredential): Promise<void> {
    const { userId, email, passwordHash, metadata, createdAt } = credential;
    const { db } = this.queries;
    await withDatabaseErrors(async () => {
      try {
        await this.queries.run(
          db.insertInto('local_credentials').values({
            user_id: userId,
            email,
            password_hash: passwordHash,
            metadata,
            created_at: createdAt,
          }),
        );
      } catch (error) {
        if (
          isUniqueViolationOf(error, {
            constraint: 'local_credentials_email_unique',
            column: 'local_credentials.email',
          })
        ) {
          throw new ConflictError('email_taken', 'That e-mail is already registered.');
        }
        throw error;
      }
    });
  }

  async findCredentialByEmail(email: string): Promise<LocalCredential | null> {
    const { db } = this.queries;
    return this.credential(db.selectFrom('local_credentials').selectAll().where('email', '=', email));
  }

  async findCredentialByUserId(userId: string): Promise<LocalCredential | null> {
    if (!isUuid(userId)) return null;
    const { db } = this.queries;
    return this.credential(db.selectFrom('local_credentials').selectAll().where('user_id', '=', userId));
  }

  async addSession(session: LocalSignInSession): Promise<void> {
    const { id, userId, createdAt, revokedAt } = session;
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .insertInto('local_sign_in_sessions')
          .values({ id, user_id: userId, created_at: createdAt, revoked_at: revokedAt }),
      ),
    );
  }

  async findSession(id: string): Promise<(LocalSignInSession & { userDisabled: boolean }) | null> {
    if (!isUuid(id)) return null;
    const [row] = await withDatabaseErrors(() =>
      this.queries.entities(LocalSignInSessionSchema, SESSION_WITH_USER.query(this.queries, { id })),
    );
    if (!row) return null;
    const disabledAt = (row as Record<string, unknown>).user_disabled_at;
    return {
      id,
      userId: row.userId as string,
      createdAt: row.createdAt as Date,
      revokedAt: (row.revokedAt as Date | null | undefined) ?? null,
      userDisabled: disabledAt !== null && disabledAt !== undefined,
    };
  }

  async revokeSession(id: string, at: Date): Promise<void> {
    if (!isUuid(id)) return;
    const { db } = this.queries;
    // The first revocation wins: a later one matches no row.
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('local_sign_in_sessions')
          .set({ revoked_at: at })
          .where('id', '=', id)
          .where('revoked_at', 'is', null),
      ),
    );
  }

  async addRefreshToken(token: LocalRefreshToken): Promise<void> {
    const { tokenHash, sessionId, userId, createdAt, expiresAt, usedAt } = token;
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db.insertInto('local_refresh_tokens').values({
          token_hash: tokenHash,
          session_id: sessionId,
          user_id: userId,
          created_at: createdAt,
          expires_at: expiresAt,
          used_at: usedAt,
        }),
      ),
    );
  }

  async findRefreshToken(tokenHash: string): Promise<LocalRefreshToken | null> {
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.entities(
        LocalRefreshTokenSchema,
        db.selectFrom('local_refresh_tokens').selectAll().where('token_hash', '=', tokenHash),
      ),
    );
    return row
      ? {
          tokenHash: row.tokenHash as string,
          sessionId: row.sessionId as string,
          userId: row.userId as string,
          createdAt: row.createdAt as Date,
          expiresAt: row.expiresAt as Date,
          usedAt: (row.usedAt as Date | null | undefined) ?? null,
        }
      : null;
  }

  async markRefreshTokenUsed(tokenHash: string, at: Date): Promise<boolean> {
    const { db } = this.queries;
    // One conditional UPDATE: of concurrent callers, only the one that flips used_at sees a changed row.
    const changed = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('local_refresh_tokens')
          .set({ used_at: at })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null),
      ),
    );
    return changed === 1;
  }

  private async credential(query: Query): Promise<LocalCredential | null> {
    const [row] = await withDatabaseErrors(() => this.queries.entities(LocalCredentialSchema, query));
    return row
      ? {
          userId: row.userId as string,
          email: row.email as string,
          passwordHash: row.passwordHash as string,
          metadata: storedJson(row.metadata) as Record<string, unknown>,
          createdAt: row.createdAt as Date,
        }
      : null;
  }
}
