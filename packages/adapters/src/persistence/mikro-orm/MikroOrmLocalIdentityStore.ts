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
import { PreparedQuery, readEntities } from './PreparedQuery.ts';

/** What `MikroOrmLocalIdentityStore` needs. */
export interface MikroOrmLocalIdentityStoreDeps {
  orm: BrowserdeckOrm;
}

const SIGN_IN_SESSION = new PreparedQuery<{ id: string }>((db, param) =>
  db.selectFrom('local_sign_in_sessions').selectAll().where('id', '=', param('id')),
);

/**
 * `LocalIdentityStore` on MikroORM (SQLite, PostgreSQL). The rules that must hold across server
 * instances are single statements: a unique index for e-mails, and conditional updates
 * (`… where used_at is null`, `… where revoked_at is null`) for refresh-token use and revocation.
 */
export class MikroOrmLocalIdentityStore implements LocalIdentityStore {
  private readonly deps: MikroOrmLocalIdentityStoreDeps;

  constructor(deps: MikroOrmLocalIdentityStoreDeps) {
    this.deps = deps;
  }

  async addCredential(credential: LocalCredential): Promise<void> {
    await withDatabaseErrors(async () => {
      try {
        await this.em().insert(LocalCredentialSchema, {
          userId: credential.userId,
          email: credential.email,
          passwordHash: credential.passwordHash,
          metadata: credential.metadata,
          createdAt: credential.createdAt,
        });
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
    const row = await withDatabaseErrors(() => this.em().findOne(LocalCredentialSchema, { email }));
    return row && toCredential(row);
  }

  async findCredentialByUserId(userId: string): Promise<LocalCredential | null> {
    if (!isUuid(userId)) return null;
    const row = await withDatabaseErrors(() => this.em().findOne(LocalCredentialSchema, { userId }));
    return row && toCredential(row);
  }

  async addSession(session: LocalSignInSession): Promise<void> {
    await withDatabaseErrors(() =>
      this.em().insert(LocalSignInSessionSchema, {
        id: session.id,
        userId: session.userId,
        createdAt: session.createdAt,
        revokedAt: session.revokedAt,
      }),
    );
  }

  async findSession(id: string): Promise<LocalSignInSession | null> {
    if (!isUuid(id)) return null;
    // Read on every authenticated request: a prepared query, no unit of work (see PreparedQuery).
    const rows = await withDatabaseErrors(() => SIGN_IN_SESSION.rows(this.deps.orm, { id }));
    const [row] = readEntities(this.deps.orm, LocalSignInSessionSchema, rows);
    if (!row) return null;
    return {
      id,
      userId: row.userId as string,
      createdAt: row.createdAt as Date,
      revokedAt: (row.revokedAt as Date | null | undefined) ?? null,
    };
  }

  async revokeSession(id: string, at: Date): Promise<void> {
    if (!isUuid(id)) return;
    // The first revocation wins: a later one matches no row.
    await withDatabaseErrors(() =>
      this.em().nativeUpdate(LocalSignInSessionSchema, { id, revokedAt: null }, { revokedAt: at }),
    );
  }

  async addRefreshToken(token: LocalRefreshToken): Promise<void> {
    await withDatabaseErrors(() =>
      this.em().insert(LocalRefreshTokenSchema, {
        tokenHash: token.tokenHash,
        sessionId: token.sessionId,
        userId: token.userId,
        createdAt: token.createdAt,
        expiresAt: token.expiresAt,
        usedAt: token.usedAt,
      }),
    );
  }

  async findRefreshToken(tokenHash: string): Promise<LocalRefreshToken | null> {
    const row = await withDatabaseErrors(() => this.em().findOne(LocalRefreshTokenSchema, { tokenHash }));
    return (
      row && {
        tokenHash: row.tokenHash,
        sessionId: row.sessionId,
        userId: row.userId,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
        usedAt: row.usedAt ?? null,
      }
    );
  }

  async markRefreshTokenUsed(tokenHash: string, at: Date): Promise<boolean> {
    // One conditional UPDATE: of concurrent callers, only the one that flips used_at sees a changed row.
    const changed = await withDatabaseErrors(() =>
      this.em().nativeUpdate(LocalRefreshTokenSchema, { tokenHash, usedAt: null }, { usedAt: at }),
    );
    return changed === 1;
  }

  private em() {
    return this.deps.orm.em.fork();
  }
}

function toCredential(row: LocalCredential): LocalCredential {
  return {
    userId: row.userId,
    email: row.email,
    passwordHash: row.passwordHash,
    metadata: row.metadata,
    createdAt: row.createdAt,
  };
}
