import { Invitation, type InvitationRepository, type InvitationState } from '@browserdeck/domain';
import type { ExpressionBuilder } from 'kysely';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { InvitationSchema } from './entities/InvitationSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';

/** What `MikroOrmInvitationRepository` needs. */
export interface MikroOrmInvitationRepositoryDeps {
  orm: BrowserdeckOrm;
}

/**
 * `InvitationRepository` on MikroORM (SQLite, PostgreSQL), through `KyselyQueries`. Nothing is
 * cached. Accepting and revoking are each one conditional UPDATE on the invitation being open, so
 * of concurrent accepts on any instances exactly one changes the row; a clashing digest violates
 * `invitations_digest_unique`, and that error is thrown.
 */
export class MikroOrmInvitationRepository implements InvitationRepository {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmInvitationRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async add(invitation: Invitation): Promise<void> {
    const { db } = this.queries;
    const {
      id,
      projectId,
      email,
      role,
      digest,
      invitedBy,
      createdAt,
      expiresAt,
      acceptedAt,
      acceptedBy,
      revokedAt,
    } = invitation;
    await withDatabaseErrors(() =>
      this.queries.run(
        db.insertInto('invitations').values({
          id,
          project_id: projectId,
          email,
          role,
          digest,
          invited_by: invitedBy,
          created_at: createdAt,
          expires_at: expiresAt,
          accepted_at: acceptedAt,
          accepted_by: acceptedBy,
          revoked_at: revokedAt,
        }),
      ),
    );
  }

  async findByDigest(digest: string): Promise<Invitation | null> {
    const { db } = this.queries;
    const [invitation] = await this.read(
      db.selectFrom('invitations').selectAll().where('digest', '=', digest),
    );
    return invitation ?? null;
  }

  async listOpen(projectId: string, now: Date): Promise<Invitation[]> {
    if (!isUuid(projectId)) return [];
    const { db } = this.queries;
    return this.read(
      db
        .selectFrom('invitations')
        .selectAll()
        .where('project_id', '=', projectId)
        .where(openAt(now))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    );
  }

  async countOpen(projectId: string, now: Date): Promise<number> {
    if (!isUuid(projectId)) return 0;
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('invitations')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('project_id', '=', projectId)
          .where(openAt(now)),
      ),
    );
    // PostgreSQL answers a count as a string (bigint).
    return Number(row?.n ?? 0);
  }

  async hasOpenFor(email: string, now: Date, operatorOnly = false): Promise<boolean> {
    const { db } = this.queries;
    const rows = await withDatabaseErrors(() => {
      let query = db.selectFrom('invitations').select('id').where('email', '=', email).where(openAt(now));
      if (operatorOnly) query = query.where('project_id', 'is', null);
      return this.queries.rows(query.limit(1));
    });
    return rows.length > 0;
  }

  async accept(invitationId: string, userId: string, now: Date): Promise<boolean> {
    if (!isUuid(invitationId) || !isUuid(userId)) return false;
    const { db } = this.queries;
    const changed = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('invitations')
          .set({ accepted_at: now, accepted_by: userId })
          .where('id', '=', invitationId)
          .where(openAt(now)),
      ),
    );
    return changed > 0;
  }

  async revoke(projectId: string | null, invitationId: string, now: Date): Promise<boolean> {
    if (!isUuid(invitationId) || (projectId !== null && !isUuid(projectId))) return false;
    const { db } = this.queries;
    const changed = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('invitations')
          .set({ revoked_at: now })
          .where('id', '=', invitationId)
          .where('project_id', projectId === null ? 'is' : '=', projectId)
          .where(openAt(now)),
      ),
    );
    return changed > 0;
  }

  private async read(query: Query): Promise<Invitation[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(InvitationSchema, query));
    return rows.map((row) => Invitation.restore(row as InvitationState));
  }
}

/** An invitation usable at `now`: neither accepted nor revoked, and not yet expired (`isOpenAt`). */
function openAt(now: Date) {
  return (eb: ExpressionBuilder<BrowserdeckDb, 'invitations'>) =>
    eb.and([eb('accepted_at', 'is', null), eb('revoked_at', 'is', null), eb('expires_at', '>', now)]);
}
