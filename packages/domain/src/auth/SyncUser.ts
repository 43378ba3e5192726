import { Project } from '../projects/Project.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { DEFAULT_PROJECT } from '../projects/projectRules.ts';
import type { Clock } from '../shared/Clock.ts';
import { DomainError } from '../shared/DomainError.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import type { AccountAdmission } from './AccountAdmission.ts';
import { normalizeEmail } from './authRules.ts';
import type { Principal } from './IdentityProvider.ts';
import { accountDisabled } from './refuseDisabledAccount.ts';
import { User, type UserIdentity } from './User.ts';
import type { UserRepository } from './UserRepository.ts';

/** What SyncUser needs. */
export interface SyncUserDeps {
  users: UserRepository;
  /** Who may make an account: an account the identity provider made is admitted here on its first sync. */
  admission: AccountAdmission;
  projects: ProjectRepository;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * Makes sure the user is recorded and has a project: creates the default project when the user has
 * none at all (archived ones count), else returns the oldest. Race-safe through the unique slug: a
 * concurrent sync that loses the insert reads the winner's project. A user not yet recorded must be
 * admitted by the sign-up mode (SPEC §17: with Supabase, an uninvited account is refused here with
 * `signup_closed`); a disabled account is refused with `account_disabled`.
 */
export class SyncUser {
  private readonly deps: SyncUserDeps;

  constructor(deps: SyncUserDeps) {
    this.deps = deps;
  }

  async execute(input: { principal: Principal }): Promise<{ user: UserIdentity; project: Project }> {
    const { principal } = input;
    const now = this.deps.clock.now();
    const known = await this.deps.users.findById(principal.userId);
    if (!known) await this.deps.admission.admitSync(normalizeEmail(principal.email));
    else if (known.disabledAt) throw accountDisabled();
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
