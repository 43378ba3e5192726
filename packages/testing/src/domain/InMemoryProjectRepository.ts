import type { Project, ProjectRepository } from '@browserdeck/domain';
import { ConflictError } from '@browserdeck/domain';

/** Projects in a Map; stores copies so callers cannot change stored state without `update`. */
export class InMemoryProjectRepository implements ProjectRepository {
  private readonly projects = new Map<string, Project>();

  async add(project: Project): Promise<void> {
    for (const other of this.projects.values()) {
      if (other.ownerId === project.ownerId && other.slug === project.slug) {
        throw new ConflictError('slug_taken', `You already have a project with the slug "${project.slug}".`);
      }
    }
    this.projects.set(project.id, copy(project));
  }

  async update(project: Project): Promise<void> {
    if (this.projects.has(project.id)) this.projects.set(project.id, copy(project));
  }

  async findOwned(ownerId: string, projectId: string): Promise<Project | null> {
    const project = this.projects.get(projectId);
    return project && project.ownerId === ownerId ? copy(project) : null;
  }

  async listOwned(ownerId: string, filter: { archived: boolean }): Promise<Project[]> {
    return this.owned(ownerId)
      .filter((p) => p.archived === filter.archived)
      .reverse();
  }

  async countOwned(ownerId: string): Promise<number> {
    return this.owned(ownerId).length;
  }

  async findOldestOwned(ownerId: string): Promise<Project | null> {
    return this.owned(ownerId)[0] ?? null;
  }

  async delete(ownerId: string, projectId: string): Promise<boolean> {
    if (!(await this.findOwned(ownerId, projectId))) return false;
    return this.projects.delete(projectId);
  }

  /** The owner's projects, oldest first. */
  private owned(ownerId: string): Project[] {
    return [...this.projects.values()]
      .filter((p) => p.ownerId === ownerId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(copy);
  }
}

function copy(project: Project): Project {
  return Object.assign(Object.create(Object.getPrototypeOf(project)), project);
}
