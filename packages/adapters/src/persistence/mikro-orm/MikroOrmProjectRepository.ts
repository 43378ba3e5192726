import { ConflictError, Project, type ProjectRepository, type ProjectState } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUniqueViolationOf, isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ProjectSchema } from './entities/ProjectSchema.ts';
import { PreparedQuery, readEntities } from './PreparedQuery.ts';

/** What `MikroOrmProjectRepository` needs. */
export interface MikroOrmProjectRepositoryDeps {
  orm: BrowserdeckOrm;
}

const FIND_OWNED = new PreparedQuery<{ id: string; ownerId: string }>((db, param) =>
  db.selectFrom('projects').selectAll().where('id', '=', param('id')).where('ownerId', '=', param('ownerId')),
);

const LIST_OWNED = new PreparedQuery<{ ownerId: string; archived: boolean }>((db, param) =>
  db
    .selectFrom('projects')
    .selectAll()
    .where('ownerId', '=', param('ownerId'))
    .where('archived', '=', param('archived'))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc'),
);

/**
 * `ProjectRepository` on MikroORM (SQLite, PostgreSQL). Every call works on its own fork and
 * writes with explicit statements, so no identity map carries state between calls. The two reads
 * behind nearly every request (`findOwned`, `listOwned`) are prepared Kysely queries (`PreparedQuery`):
 * no unit of work, no per-call query building.
 */
export class MikroOrmProjectRepository implements ProjectRepository {
  private readonly deps: MikroOrmProjectRepositoryDeps;

  constructor(deps: MikroOrmProjectRepositoryDeps) {
    this.deps = deps;
  }

  async add(project: Project): Promise<void> {
    await withDatabaseErrors(async () => {
      try {
        await this.deps.orm.em.fork().insert(ProjectSchema, {
          id: project.id,
          ownerId: project.ownerId,
          name: project.name,
          slug: project.slug,
          archived: project.archived,
          createdAt: project.createdAt,
          updatedAt: project.updatedAt,
        });
      } catch (error) {
        throw slugTaken(error, project.slug) ?? error;
      }
    });
  }

  async update(project: Project): Promise<void> {
    await withDatabaseErrors(async () => {
      try {
        await this.deps.orm.em.fork().nativeUpdate(
          ProjectSchema,
          { id: project.id, ownerId: project.ownerId },
          {
            name: project.name,
            slug: project.slug,
            archived: project.archived,
            updatedAt: project.updatedAt,
          },
        );
      } catch (error) {
        throw slugTaken(error, project.slug) ?? error;
      }
    });
  }

  async findOwned(ownerId: string, projectId: string): Promise<Project | null> {
    if (!isUuid(ownerId) || !isUuid(projectId)) return null;
    const rows = await withDatabaseErrors(() => FIND_OWNED.rows(this.deps.orm, { id: projectId, ownerId }));
    return this.toProjects(rows)[0] ?? null;
  }

  async listOwned(ownerId: string, filter: { archived: boolean }): Promise<Project[]> {
    if (!isUuid(ownerId)) return [];
    const rows = await withDatabaseErrors(() =>
      LIST_OWNED.rows(this.deps.orm, { ownerId, archived: filter.archived }),
    );
    return this.toProjects(rows);
  }

  async countOwned(ownerId: string): Promise<number> {
    if (!isUuid(ownerId)) return 0;
    return withDatabaseErrors(() => this.deps.orm.em.fork().count(ProjectSchema, { ownerId }));
  }

  async findOldestOwned(ownerId: string): Promise<Project | null> {
    if (!isUuid(ownerId)) return null;
    const row = await withDatabaseErrors(() =>
      this.deps.orm.em
        .fork()
        .findOne(ProjectSchema, { ownerId }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
    );
    return row && Project.restore({ ...row });
  }

  async delete(ownerId: string, projectId: string): Promise<boolean> {
    if (!isUuid(ownerId) || !isUuid(projectId)) return false;
    // Sessions, agents and everything else a project owns go with it through ON DELETE CASCADE.
    const deleted = await withDatabaseErrors(() =>
      this.deps.orm.em.fork().nativeDelete(ProjectSchema, { id: projectId, ownerId }),
    );
    return deleted > 0;
  }

  private toProjects(rows: Record<string, unknown>[]): Project[] {
    return readEntities(this.deps.orm, ProjectSchema, rows).map((row) =>
      Project.restore(row as ProjectState),
    );
  }
}

function slugTaken(error: unknown, slug: string): ConflictError | undefined {
  return isUniqueViolationOf(error, { constraint: 'projects_owner_id_slug_unique', column: 'projects.slug' })
    ? new ConflictError('slug_taken', `You already have a project with the slug "${slug}".`)
    : undefined;
}
