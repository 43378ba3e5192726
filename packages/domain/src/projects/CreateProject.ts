import { type Caller, requireUser } from '../auth/Caller.ts';
import type { Clock } from '../shared/Clock.ts';
import { DomainError } from '../shared/DomainError.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';
import { checkProjectName, slugify, suffixSlug } from './projectRules.ts';

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
}

/** Creates a project for its owner. */
export class CreateProject {
  private readonly deps: CreateProjectDeps;

  constructor(deps: CreateProjectDeps) {
    this.deps = deps;
  }

  async execute(input: CreateProjectInput): Promise<Project> {
    const ownerId = requireUser(input.caller, 'Creating projects').userId;
    const name = input.name.trim();
    checkProjectName(name);
    if (input.slug !== undefined) return this.add(ownerId, name, input.slug.trim());
    const base = slugify(name);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.add(ownerId, name, attempt === 1 ? base : suffixSlug(base, attempt));
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

  private async add(ownerId: string, name: string, slug: string): Promise<Project> {
    const project = Project.create({
      id: this.deps.ids.next(),
      ownerId,
      name,
      slug,
      now: this.deps.clock.now(),
    });
    await this.deps.projects.add(project);
    return project;
  }
}
