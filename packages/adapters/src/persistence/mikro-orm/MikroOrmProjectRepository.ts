import { ConflictError, type Project, type ProjectRepository } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUniqueViolationOf, isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ProjectSchema } from './entities/ProjectSchema.ts';
import { nativeSqlOf } from './NativeSql.ts';
import { type ProjectRow, SELECT_PROJECT, toProject } from './projectRows.ts';

/** What `MikroOrmProjectRepository` needs. */
export interface MikroOrmProjectRepositoryDeps {
  orm: BrowserdeckOrm;
}

/**
 * `ProjectRepository` on MikroORM (SQLite, PostgreSQL). Every call works on its own fork and
 * writes with explicit statements, so no identity map carries state between calls. The two reads
 * behind nearly every request (`findOwned`, `listOwned`) are hand-written statements (NativeSql).
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
    const [row] = await withDatabaseErrors(() =>
      nativeSqlOf(this.deps.orm).all<ProjectRow>(`${SELECT_PROJECT} where id = ? and owner_id = ?`, [
        projectId,
        ownerId,
      ]),
    );
    return row ? toProject(row) : null;
  }

  async listOwned(ownerId: string, filter: { archived: boolean }): Promise<Project[]> {
    if (!isUuid(ownerId)) return [];
    const rows = await withDatabaseErrors(() =>
      nativeSqlOf(this.deps.orm).all<ProjectRow>(
        `${SELECT_PROJECT} where owner_id = ? and archived = ? order by created_at desc, id desc`,
        [ownerId, filter.archived],
      ),
    );
    return rows.map(toProject);
  }

  async findOldestOwned(ownerId: string): Promise<Project | null> {
    if (!isUuid(ownerId)) return null;
    return withDatabaseErrors(() =>
      this.deps.orm.em
        .fork()
        .findOne(ProjectSchema, { ownerId }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
    );
  }

  async delete(ownerId: string, projectId: string): Promise<boolean> {
    if (!isUuid(ownerId) || !isUuid(projectId)) return false;
    // Sessions, agents and everything else a project owns go with it through ON DELETE CASCADE.
    const deleted = await withDatabaseErrors(() =>
      this.deps.orm.em.fork().nativeDelete(ProjectSchema, { id: projectId, ownerId }),
    );
    return deleted > 0;
  }
}

function slugTaken(error: unknown, slug: string): ConflictError | undefined {
  return isUniqueViolationOf(error, { constraint: 'projects_owner_id_slug_unique', column: 'projects.slug' })
    ? new ConflictError('slug_taken', `You already have a project with the slug "${slug}".`)
    : undefined;
}
