import {
  ConflictError,
  type MemberRepository,
  type MemberRole,
  type ProjectMember,
  type ProjectRole,
} from '@browserdeck/domain';
import { sql } from 'kysely';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUniqueViolationOf, isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ProjectMemberSchema } from './entities/ProjectMemberSchema.ts';
import { inTransaction } from './inTransaction.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';

/** What `MikroOrmMemberRepository` needs. */
export interface MikroOrmMemberRepositoryDeps {
  orm: BrowserdeckOrm;
}

/**
 * `MemberRepository` on MikroORM (SQLite, PostgreSQL), over `project_members` joined with `users`
 * for the e-mails, through `KyselyQueries`. Every write is one conditional statement (the owner's
 * row is never matched by `setRole` or `remove`; an add is `on conflict do nothing`), except
 * `transfer`: three statements in one transaction, the first a conditional update of the project's
 * owner that only one of concurrent transfers can make.
 */
export class MikroOrmMemberRepository implements MemberRepository {
  private readonly orm: BrowserdeckOrm;
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmMemberRepositoryDeps) {
    this.orm = deps.orm;
    this.queries = queriesOf(deps.orm);
  }

  async list(projectId: string): Promise<ProjectMember[]> {
    if (!isUuid(projectId)) return [];
    return this.read(
      this.withEmail()
        .where('member.project_id', '=', projectId)
        .orderBy(sql`case when ${sql.ref('member.role')} = ${'owner'} then 0 else 1 end`)
        .orderBy('member.created_at', 'asc')
        .orderBy('member.user_id', 'asc'),
    );
  }

  async find(projectId: string, userId: string): Promise<ProjectMember | null> {
    if (!isUuid(projectId) || !isUuid(userId)) return null;
    const [member] = await this.read(
      this.withEmail().where('member.project_id', '=', projectId).where('member.user_id', '=', userId),
    );
    return member ?? null;
  }

  async count(projectId: string): Promise<number> {
    if (!isUuid(projectId)) return 0;
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('project_members')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('project_id', '=', projectId),
      ),
    );
    // PostgreSQL answers a count as a string (bigint).
    return Number(row?.n ?? 0);
  }

  async add(member: {
    projectId: string;
    userId: string;
    role: MemberRole;
    now: Date;
  }): Promise<'added' | 'exists'> {
    const { db } = this.queries;
    const added = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .insertInto('project_members')
          .values({
            project_id: member.projectId,
            user_id: member.userId,
            role: member.role,
            created_at: member.now,
            updated_at: member.now,
          })
          .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing()),
      ),
    );
    return added > 0 ? 'added' : 'exists';
  }

  async setRole(projectId: string, userId: string, role: MemberRole, now: Date): Promise<boolean> {
    if (!isUuid(projectId) || !isUuid(userId)) return false;
    const { db } = this.queries;
    const changed = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('project_members')
          .set({ role, updated_at: now })
          .where('project_id', '=', projectId)
          .where('user_id', '=', userId)
          .where('role', '<>', 'owner'),
      ),
    );
    return changed > 0;
  }

  async remove(projectId: string, userId: string): Promise<boolean> {
    if (!isUuid(projectId) || !isUuid(userId)) return false;
    const { db } = this.queries;
    const removed = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .deleteFrom('project_members')
          .where('project_id', '=', projectId)
          .where('user_id', '=', userId)
          .where('role', '<>', 'owner'),
      ),
    );
    return removed > 0;
  }

  async transfer(projectId: string, fromUserId: string, toUserId: string, now: Date): Promise<boolean> {
    if (![projectId, fromUserId, toUserId].every(isUuid) || fromUserId === toUserId) return false;
    const { queries } = this;
    try {
      return await withDatabaseErrors(() =>
        // Joins the caller's transaction (`Transactions.run`) when there is one, as a savepoint.
        inTransaction(this.orm, async () => {
          // The project moves only from its owner, and only to a member: one conditional statement,
          // so of two concurrent transfers one finds the owner changed and moves nothing.
          const moved = await queries.run(
            queries.db
              .updateTable('projects')
              .set({ owner_id: toUserId })
              .where('id', '=', projectId)
              .where('owner_id', '=', fromUserId)
              .where((eb) =>
                eb.exists(
                  eb
                    .selectFrom('project_members')
                    .select('user_id')
                    .where('project_id', '=', projectId)
                    .where('user_id', '=', toUserId),
                ),
              ),
          );
          if (moved === 0) return false;
          for (const [userId, role] of [
            [fromUserId, 'admin'],
            [toUserId, 'owner'],
          ] as const) {
            await queries.run(
              queries.db
                .updateTable('project_members')
                .set({ role, updated_at: now })
                .where('project_id', '=', projectId)
                .where('user_id', '=', userId),
            );
          }
          return true;
        }),
      );
    } catch (error) {
      throw slugTakenByNewOwner(error) ?? error;
    }
  }

  /** Members with the e-mail their user record has. */
  private withEmail() {
    return this.queries.db
      .selectFrom('project_members as member')
      .innerJoin('users', 'users.id', 'member.user_id')
      .selectAll('member')
      .select('users.email as email');
  }

  private async read(query: Query): Promise<ProjectMember[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(ProjectMemberSchema, query));
    return rows.map((row) => ({
      projectId: row.projectId as string,
      userId: row.userId as string,
      email: (row as Record<string, unknown>).email as string,
      role: row.role as ProjectRole,
      createdAt: row.createdAt as Date,
      updatedAt: row.updatedAt as Date,
    }));
  }
}

function slugTakenByNewOwner(error: unknown): ConflictError | undefined {
  return isUniqueViolationOf(error, { constraint: 'projects_owner_id_slug_unique', column: 'projects.slug' })
    ? new ConflictError(
        'slug_taken',
        'The new owner already has a project with this project’s slug; rename one first.',
      )
    : undefined;
}
