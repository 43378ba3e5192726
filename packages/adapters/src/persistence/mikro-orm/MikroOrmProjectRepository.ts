import {
  ConflictError,
  Project,
  type ProjectAccessRecord,
  type ProjectGrant,
  type ProjectRepository,
  type ProjectRole,
  type ProjectState,
} from '@browserdeck/domain';
import { type Kysely, sql } from 'kysely';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUniqueViolationOf, isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ProjectSchema } from './entities/ProjectSchema.ts';
import { inTransaction } from './inTransaction.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
import { Statement } from './Statement.ts';

/** What `MikroOrmProjectRepository` needs. */
export interface MikroOrmProjectRepositoryDeps {
  orm: BrowserdeckOrm;
}

/**
 * A project with its owner's `disabled_at` (and, in `ACCESS_AS_MEMBER`, the caller's membership),
 * all by primary key: the read behind nearly every project-scoped request, so prepared (ADR 0037).
 */
const ACCESS = new Statement(
  (db, params: { projectId: string }) =>
    accessQuery(db, params.projectId).select(sql<null>`null`.as('member_role')),
  { prepared: true },
);
const ACCESS_AS_MEMBER = new Statement(
  (db, params: { projectId: string; userId: string }) =>
    accessQuery(db, params.projectId)
      .leftJoin('project_members as member', (join) =>
        join.onRef('member.project_id', '=', 'projects.id').on('member.user_id', '=', params.userId),
      )
      .select('member.role as member_role'),
  { prepared: true },
);

function accessQuery(db: Kysely<BrowserdeckDb>, projectId: string) {
  return db
    .selectFrom('projects')
    .innerJoin('users as owner', 'owner.id', 'projects.owner_id')
    .selectAll('projects')
    .select('owner.disabled_at as owner_disabled_at')
    .where('projects.id', '=', projectId);
}

/**
 * The projects a user is a member of, with the role. The plan must start from the user's few
 * memberships (their index) and fetch each project by its key, at a cost that does not grow with
 * the installation. SQLite's planner does so for a plain join. PostgreSQL's hashes the memberships
 * and scans every project (measured: a list of 20 took 0.5 ms at 3,000 projects and grew with the
 * table), so there each project is a lateral lookup; `offset 0` keeps the planner from folding it
 * back into that join. Prepared: every console page load and SDK start reads it (ADR 0037).
 */
const MEMBER_PROJECTS = new Statement(
  (db, params: { userId: string; archived: boolean }, dialect) => {
    const memberships = db
      .selectFrom('project_members as member')
      .select('member.role as member_role')
      .where('member.user_id', '=', params.userId);
    return dialect === 'postgresql'
      ? memberships
          .crossJoinLateral((eb) =>
            eb
              .selectFrom('projects')
              .selectAll()
              .whereRef('projects.id', '=', 'member.project_id')
              .where('projects.archived', '=', params.archived)
              .offset(0)
              .as('projects'),
          )
          .selectAll('projects')
      : memberships
          .innerJoin('projects', 'projects.id', 'member.project_id')
          .selectAll('projects')
          .where('projects.archived', '=', params.archived);
  },
  { prepared: true },
);

/**
 * `ProjectRepository` on MikroORM (SQLite, PostgreSQL): Kysely queries through MikroORM's Kysely
 * integration (`KyselyQueries`), no unit of work or identity map between calls. Who may reach a
 * project is its rows in `project_members` (the owner's written with the project, in one
 * transaction). The two reads behind nearly every request are `findAccess` (one statement: the
 * project, the caller's membership and the owner's `disabled_at`, all by primary key) and
 * `listForMember`.
 */
export class MikroOrmProjectRepository implements ProjectRepository {
  private readonly orm: BrowserdeckOrm;
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmProjectRepositoryDeps) {
    this.orm = deps.orm;
    this.queries = queriesOf(deps.orm);
  }

  async add(project: Project): Promise<void> {
    const { id, ownerId, name, slug, archived, createdAt, updatedAt } = project;
    const { queries } = this;
    await withDatabaseErrors(async () => {
      try {
        // Joins the caller's transaction (`Transactions.run`) when there is one, as a savepoint.
        await inTransaction(this.orm, async () => {
          await queries.run(
            queries.db.insertInto('projects').values({
              id,
              owner_id: ownerId,
              name,
              slug,
              archived,
              created_at: createdAt,
              updated_at: updatedAt,
            }),
          );
          await queries.run(
            queries.db.insertInto('project_members').values({
              project_id: id,
              user_id: ownerId,
              role: 'owner',
              created_at: createdAt,
              updated_at: createdAt,
            }),
          );
        });
      } catch (error) {
        throw slugTaken(error, project.slug) ?? error;
      }
    });
  }

  async update(project: Project): Promise<void> {
    const { id, ownerId, name, slug, archived, updatedAt } = project;
    const { db } = this.queries;
    await withDatabaseErrors(async () => {
      try {
        await this.queries.run(
          db
            .updateTable('projects')
            .set({ name, slug, archived, updated_at: updatedAt })
            .where('id', '=', id)
            .where('owner_id', '=', ownerId),
        );
      } catch (error) {
        throw slugTaken(error, project.slug) ?? error;
      }
    });
  }

  async findAccess(projectId: string, userId: string | null): Promise<ProjectAccessRecord | null> {
    if (!isUuid(projectId)) return null;
    const member = userId !== null && isUuid(userId) ? userId : null;
    const [row] = await withDatabaseErrors(() =>
      this.queries.entities(
        ProjectSchema,
        member === null
          ? ACCESS.query(this.queries, { projectId })
          : ACCESS_AS_MEMBER.query(this.queries, { projectId, userId: member }),
      ),
    );
    if (!row) return null;
    const extra = row as Record<string, unknown>;
    return {
      project: projectOf(row),
      role: (extra.member_role as ProjectRole | null | undefined) ?? null,
      ownerDisabled: extra.owner_disabled_at !== null && extra.owner_disabled_at !== undefined,
    };
  }

  async listForMember(userId: string, filter: { archived: boolean }): Promise<ProjectGrant[]> {
    if (!isUuid(userId)) return [];
    const rows = await withDatabaseErrors(() =>
      this.queries.entities(
        ProjectSchema,
        MEMBER_PROJECTS.query(this.queries, { userId, archived: filter.archived }),
      ),
    );
    // Sorted here, not in SQL: an `order by projects.created_at` lets the planner walk every
    // project in that order and probe the memberships, instead of reading the user's few
    // memberships by their index. A user's memberships are bounded, so the sort is small.
    return rows
      .map((row) => ({
        project: projectOf(row),
        role: (row as Record<string, unknown>).member_role as ProjectRole,
      }))
      .sort(
        (a, b) =>
          b.project.createdAt.getTime() - a.project.createdAt.getTime() ||
          (a.project.id < b.project.id ? 1 : a.project.id > b.project.id ? -1 : 0),
      );
  }

  async listOwnedIds(ownerId: string): Promise<string[]> {
    if (!isUuid(ownerId)) return [];
    const { db } = this.queries;
    const rows = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('projects')
          .select('id')
          .where('owner_id', '=', ownerId)
          .orderBy('created_at', 'asc')
          .orderBy('id', 'asc'),
      ),
    );
    return rows.map((row) => String(row.id));
  }

  async countOwned(ownerId: string): Promise<number> {
    if (!isUuid(ownerId)) return 0;
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('projects')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('owner_id', '=', ownerId),
      ),
    );
    // PostgreSQL answers a count as a string (bigint).
    return Number(row?.n ?? 0);
  }

  async findOldestOwned(ownerId: string): Promise<Project | null> {
    if (!isUuid(ownerId)) return null;
    const { db } = this.queries;
    const [project] = await this.read(
      db
        .selectFrom('projects')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(1),
    );
    return project ?? null;
  }

  async delete(ownerId: string, projectId: string): Promise<boolean> {
    if (!isUuid(ownerId) || !isUuid(projectId)) return false;
    const { db } = this.queries;
    // Sessions, agents and everything else a project owns go with it through ON DELETE CASCADE.
    const deleted = await withDatabaseErrors(() =>
      this.queries.run(db.deleteFrom('projects').where('id', '=', projectId).where('owner_id', '=', ownerId)),
    );
    return deleted > 0;
  }

  private async read(query: Query): Promise<Project[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(ProjectSchema, query));
    return rows.map(projectOf);
  }
}

/** A `projects` row read through `ProjectSchema`, as the domain's `Project`, without the joined columns. */
function projectOf(row: object): Project {
  const { id, ownerId, name, slug, archived, createdAt, updatedAt } = row as ProjectState;
  return Project.restore({ id, ownerId, name, slug, archived, createdAt, updatedAt } as ProjectState);
}

function slugTaken(error: unknown, slug: string): ConflictError | undefined {
  return isUniqueViolationOf(error, { constraint: 'projects_owner_id_slug_unique', column: 'projects.slug' })
    ? new ConflictError('slug_taken', `You already have a project with the slug "${slug}".`)
    : undefined;
}
