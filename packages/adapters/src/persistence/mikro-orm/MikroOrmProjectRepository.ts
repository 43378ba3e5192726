import { ConflictError, Project, type ProjectRepository, type ProjectState } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUniqueViolationOf, isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ProjectSchema } from './entities/ProjectSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';

/** What `MikroOrmProjectRepository` needs. */
export interface MikroOrmProjectRepositoryDeps {
  orm: BrowserdeckOrm;
}

/**
 * `ProjectRepository` on MikroORM (SQLite, PostgreSQL): Kysely queries through MikroORM's Kysely
 * integration (`KyselyQueries`), one statement per call, no unit of work or identity map between
 * calls. The two reads behind nearly every request are `findOwned` and `listOwned`.
 */
export class MikroOrmProjectRepository implements ProjectRepository {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmProjectRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async add(project: Project): Promise<void> {
    const { id, ownerId, name, slug, archived, createdAt, updatedAt } = project;
    const { db } = this.queries;
    await withDatabaseErrors(async () => {
      try {
        await this.queries.run(
          db.insertInto('projects').values({
            id,
            owner_id: ownerId,
            name,
            slug,
            archived,
            created_at: createdAt,
            updated_at: updatedAt,
          }),
        );
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

  async findOwned(ownerId: string, projectId: string): Promise<Project | null> {
    if (!isUuid(ownerId) || !isUuid(projectId)) return null;
    const { db } = this.queries;
    const [project] = await this.read(
      db.selectFrom('projects').selectAll().where('id', '=', projectId).where('owner_id', '=', ownerId),
    );
    return project ?? null;
  }

  async listOwned(ownerId: string, filter: { archived: boolean }): Promise<Project[]> {
    if (!isUuid(ownerId)) return [];
    const { db } = this.queries;
    return this.read(
      db
        .selectFrom('projects')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where('archived', '=', filter.archived)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    );
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
    return rows.map((row) => Project.restore(row as ProjectState));
  }
}

function slugTaken(error: unknown, slug: string): ConflictError | undefined {
  return isUniqueViolationOf(error, { constraint: 'projects_owner_id_slug_unique', column: 'projects.slug' })
    ? new ConflictError('slug_taken', `You already have a project with the slug "${slug}".`)
    : undefined;
}
