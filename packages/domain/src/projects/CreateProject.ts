import { type Caller, requireUser } from '../access/Caller.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { Clock } from '../shared/Clock.ts';
import { ConflictError, DomainError } from '../shared/DomainError.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';
import { checkProjectName, PROJECTS_PER_USER_DEFAULT, slugify, suffixSlug } from './projectRules.ts';

/** How many suffixed slugs to try when a derived slug is taken. */
const DERIVED_SLUG_ATTEMPTS = 20;

export interface CreateProjectInput {
  caller: Caller;
  name: string;
  /** When absent the slug is derived from the name, with a numeric suffix if the owner has it already. */
  slug?: string | undefined;
}

/** What CreateProject needs. */
export interface CreateProjectDeps {
  projects: ProjectRepository;
  ids: IdGenerator;
  clock: Clock;
  /** Records the create in the audit log, in the transaction that stores the project. */
  audit: AuditTrail;
  /** Projects one account may hold, archived ones included (default `PROJECTS_PER_USER_DEFAULT`). */
  maxProjectsPerUser?: number | undefined;
}

/**
 * Creates a project for its owner, while the owner holds fewer than `maxProjectsPerUser` (else
 * `project_limit_reached`; checked before the insert, so racing creates may pass it by a few).
 */
export class CreateProject {
  private readonly deps: CreateProjectDeps;

  constructor(deps: CreateProjectDeps) {
    this.deps = deps;
  }

  async execute(input: CreateProjectInput): Promise<Project> {
    const ownerId = requireUser(input.caller, 'Creating projects').userId;
    const name = input.name.trim();
    checkProjectName(name);
    await this.requireRoom(ownerId);
    if (input.slug !== undefined) return this.add(input.caller, ownerId, name, input.slug.trim());
    const base = slugify(name);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.add(input.caller, ownerId, name, attempt === 1 ? base : suffixSlug(base, attempt));
      } catch (error) {
        if (
          !(error instanceof DomainError && error.code === 'slug_taken') ||
          attempt >= DERIVED_SLUG_ATTEMPTS
        ) {
          throw error;
        }
      }
    }
  }

  private async requireRoom(ownerId: string): Promise<void> {
    const max = this.deps.maxProjectsPerUser ?? PROJECTS_PER_USER_DEFAULT;
    if ((await this.deps.projects.countOwned(ownerId)) >= max)
      throw new ConflictError(
        'project_limit_reached',
        `This account has ${max} projects (archived ones count), the most it may hold; delete one first.`,
      );
  }

  private async add(caller: Caller, ownerId: string, name: string, slug: string): Promise<Project> {
    const project = Project.create({
      id: this.deps.ids.next(),
      ownerId,
      name,
      slug,
      now: this.deps.clock.now(),
    });
    const change = {
      projectId: project.id,
      action: 'project.create',
      target: { type: 'project', id: project.id },
    } as const;
    await this.deps.audit.record(caller, change, () => this.deps.projects.add(project));
    return project;
  }
}
