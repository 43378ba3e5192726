import { Project } from '../projects/Project.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { DEFAULT_PROJECT } from '../projects/projectRules.ts';
import type { Clock } from '../shared/Clock.ts';
import { DomainError } from '../shared/DomainError.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import type { Principal } from './IdentityProvider.ts';
import { User, type UserIdentity } from './User.ts';
import type { UserRepository } from './UserRepository.ts';

/** What SyncUser needs. */
export interface SyncUserDeps {
  users: UserRepository;
  projects: ProjectRepository;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * Makes sure the user is recorded and has a project: creates the default project when the user has
 * none at all (archived ones count), else returns the oldest. Race-safe through the unique slug: a
 * concurrent sync that loses the insert reads the winner's project.
 */
export class SyncUser {
  private readonly deps: SyncUserDeps;

  constructor(deps: SyncUserDeps) {
    this.deps = deps;
  }

  async execute(input: { principal: Principal }): Promise<{ user: UserIdentity; project: Project }> {
    const { principal } = input;
    const now = this.deps.clock.now();
    const user = await this.deps.users.ensure(
      User.create({ id: principal.userId, email: principal.email, createdAt: now }),
    );
    const existing = await this.deps.projects.findOldestOwned(user.id);
    if (existing) return { user: { id: user.id, email: user.email }, project: existing };
    const project = Project.create({ id: this.deps.ids.next(), ownerId: user.id, ...DEFAULT_PROJECT, now });
    try {
      await this.deps.projects.add(project);
      return { user: { id: user.id, email: user.email }, project };
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'slug_taken')) throw error;
      const winner = await this.deps.projects.findOldestOwned(user.id);
      if (!winner) throw error;
      return { user: { id: user.id, email: user.email }, project: winner };
    }
  }
}
